/* Unit tests: command-line size and number parsing. */
#include <string.h>

#include "../../common/size_parse.h"
#include "check.h"
#include "groups.h"

void test_size_parse(void)
{
	struct kb_err err;
	uint64_t v = 0;
	uint32_t ps = 0;

	CHECK(kb_parse_size("4096", &v, &err) == 0 && v == 4096);
	CHECK(kb_parse_size("4K", &v, &err) == 0 && v == 4096);
	CHECK(kb_parse_size("64k", &v, &err) == 0 && v == 65536);
	CHECK(kb_parse_size("2MiB", &v, &err) == 0 && v == 2u << 20);
	CHECK(kb_parse_size("1G", &v, &err) == 0 && v == 1u << 30);
	CHECK(kb_parse_size("", &v, &err) == -1);
	CHECK(kb_parse_size("4X", &v, &err) == -1 && strstr(err.msg, "not a size"));
	CHECK(kb_parse_size("-4", &v, &err) == -1);
	CHECK(kb_parse_size("99999999999999999999", &v, &err) == -1 && strstr(err.msg, "too large"));
	CHECK(kb_parse_size("17179869184G", &v, &err) == -1);

	CHECK(kb_parse_page_size("4K", &ps, &err) == 0 && ps == 4096);
	CHECK(kb_parse_page_size("64", &ps, &err) == 0 && ps == 64);
	CHECK(kb_parse_page_size("100", &ps, &err) == -1 && strstr(err.msg, "multiple of 64"));
	CHECK(kb_parse_page_size("0", &ps, &err) == -1);
	CHECK(kb_parse_page_size("32M", &ps, &err) == -1);

	CHECK(kb_parse_uint("17", 100, &v, &err) == 0 && v == 17);
	CHECK(kb_parse_uint("101", 100, &v, &err) == -1);
	CHECK(kb_parse_uint("1x", 100, &v, &err) == -1);
}
