/* Unit-test runner: runs every test group and prints "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "groups.h"

unsigned check_passed, check_failed;

static const struct {
	const char *name;
	unit_test_fn fn;
} groups[] = {
#define UNIT_GROUP(name) { #name, name },
#include "groups.def"
#undef UNIT_GROUP
};

int main(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (argc > 1 && strcmp(argv[1], groups[i].name) != 0)
			continue;
		unsigned before = check_failed;
		groups[i].fn();
		printf("%-4s %s\n", check_failed == before ? "ok" : "FAIL", groups[i].name);
	}
	printf("unit: %u passed, %u failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}
