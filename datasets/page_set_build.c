/* From a request to a page set (see page_set.h): the content first, then
 * its layout. Every command that measures builds its sets here. */
#include <string.h>

#include "page_set.h"

uint64_t page_set_request_ws_bytes(const struct page_set_request *req)
{
	uint64_t ws = req->working_set_bytes ? req->working_set_bytes
		      : req->flushed		 ? PAGE_SET_FLUSHED_DEFAULT_BYTES
						 : page_set_cold_default_bytes(req->llc_bytes);
	/* The set page_set_cold builds: its label (cold or warm) and the
	 * warnings go by what is measured, not by what was asked for: whole
	 * pages, two at least (--working-set 64K of 16M pages is 32M), at most
	 * PAGE_SET_COLD_PAGES_MAX. */
	if (!req->page_size)
		return ws;
	uint64_t pages = ws / req->page_size;
	pages = pages < 2 ? 2 : pages > PAGE_SET_COLD_PAGES_MAX ? PAGE_SET_COLD_PAGES_MAX : pages;
	return pages * req->page_size;
}

const char *page_set_cache_label(const struct page_set_request *req)
{
	if (!req->cold)
		return "hot";
	if (!req->flushed && req->llc_bytes && page_set_request_ws_bytes(req) < PAGE_SET_COLD_LLC_FACTOR * req->llc_bytes)
		return "warm";
	return "cold";
}

const char *page_set_cold_by(const struct page_set_request *req)
{
	if (strcmp(page_set_cache_label(req), "cold") != 0)
		return NULL;
	return req->flushed ? "flush" : "size";
}

int page_set_data_is_file(const char *data)
{
	return strcmp(data, "zero") != 0 && strcmp(data, "random") != 0;
}

size_t page_set_request_file_bytes(const struct page_set_request *req)
{
	return req->cold ? (size_t)page_set_request_ws_bytes(req) : PAGE_SET_HOT_FILE_MAX;
}

int page_set_lay_out(const struct page_set_request *req, const struct page_content *content, struct page_set *set,
		     struct kb_err *err)
{
	int rc = req->cold ? page_set_cold(set, content, page_set_request_ws_bytes(req), req->misalign, req->seed, err)
			   : page_set_hot(set, content, req->misalign, err);

	if (rc == 0) {
		set->cache = page_set_cache_label(req);
		set->flushed = req->cold && req->flushed;
	}
	return rc;
}

int page_set_build(const struct page_set_request *req, struct page_set *set, struct kb_err *err)
{
	struct page_content content;
	int rc;

	if (strcmp(req->data, "zero") == 0)
		rc = page_content_zero(&content, req->page_size, err);
	else if (strcmp(req->data, "random") == 0)
		rc = page_content_random(&content, req->page_size, req->seed, err);
	else
		rc = page_content_file(&content, req->data, req->page_size, &req->dump,
				       page_set_request_file_bytes(req), err);
	if (rc)
		return -1;
	rc = page_set_lay_out(req, &content, set, err);
	page_content_release(&content);
	return rc;
}
