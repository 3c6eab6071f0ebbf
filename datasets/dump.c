/* Format selection for page files (see dump.h). */
#include "dump.h"

#include <string.h>

#include "raw.h"

struct page_source *dump_source_open(const char *path, uint32_t page_size, const char *format,
				     struct kb_err *err)
{
	if (!format || strcmp(format, "auto") == 0 || strcmp(format, "raw") == 0)
		return raw_source_open(path, page_size, err);
	return kb_fail(err, "unknown input format '%s'", format), NULL;
}
