/* Unit tests: table rendering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/table.h"
#include "check.h"
#include "groups.h"

void test_table(void)
{
	struct table *t = table_new(3, "lrl");
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	CHECK(t && f);
	CHECK(table_add_rowf(t, "NAME", "MB/s", "NOTE") == 0);
	CHECK(table_add_rowf(t, "jhash2", "1569", "old") == 0);
	CHECK(table_add_rowf(t, "crc32c", "12081", "") == 0);
	CHECK(table_print(t, f) == 0);
	fclose(f);
	CHECK_STR(text, "NAME     MB/s  NOTE\n"
			"-------------------\n"
			"jhash2   1569  old\n"
			"crc32c  12081  \n");
	free(text);
	/* The same table in Markdown, a '|' in a cell escaped. */
	CHECK(table_add_rowf(t, "a|b", "1", "x") == 0);
	f = open_memstream(&text, &size);
	CHECK(f && table_print_markdown(t, f) == 0);
	fclose(f);
	CHECK_STR(text, "| NAME | MB/s | NOTE |\n| --- | ---: | --- |\n| jhash2 | 1569 | old |\n"
			"| crc32c | 12081 |  |\n| a\\|b | 1 | x |\n");
	free(text);
	table_free(t);
}
