/* The KSMBENCH notes of a capture (see capture_note.h). */
#include "capture_note.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/kernel_timer.h"
#include "stream.h"

/* The values the kernel shows for each number: its sysfs store functions
 * refuse the rest (max_page_sharing below 2, a bool that is not 0 or 1,
 * more than an unsigned int), and HZ is a CONFIG_HZ. */
static const struct {
	const char *key;
	size_t at;
	struct capture_setting_range range;
} numbers[] = {
	{ "ksm.max_page_sharing", offsetof(struct capture_system, max_page_sharing), { 2, INT_MAX } },
	{ "ksm.use_zero_pages", offsetof(struct capture_system, use_zero_pages), { 0, 1 } },
	{ "ksm.pages_to_scan", offsetof(struct capture_system, pages_to_scan), { 0, UINT_MAX } },
	{ "ksm.sleep_millisecs", offsetof(struct capture_system, sleep_millisecs), { 0, UINT_MAX } },
	{ "ksm.smart_scan", offsetof(struct capture_system, smart_scan), { 0, 1 } },
	{ "hz", offsetof(struct capture_system, hz), { KERNEL_HZ_MIN, KERNEL_HZ_MAX } },
};

#define NNUMBERS (sizeof(numbers) / sizeof(numbers[0]))

static struct capture_setting *number_at(struct capture_system *s, size_t i)
{
	return (struct capture_setting *)((char *)s + numbers[i].at);
}

struct capture_setting_range capture_setting_range(const char *key)
{
	for (size_t i = 0; i < NNUMBERS; i++)
		if (strcmp(key, numbers[i].key) == 0)
			return numbers[i].range;
	return (struct capture_setting_range){ 1, 0 };
}

void capture_note_init(struct capture_note *n)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < NNUMBERS; i++)
		*number_at(&n->system, i) = (struct capture_setting){ .value = CAPTURE_SETTING_UNKNOWN };
}

static void system_value(struct capture_system *s, const char *key, const char *value)
{
	if (strcmp(key, "kernel_release") == 0) {
		snprintf(s->kernel_release, sizeof(s->kernel_release), "%s", value);
		return;
	}
	if (strcmp(key, "machine") == 0) {
		snprintf(s->machine, sizeof(s->machine), "%s", value);
		return;
	}
	if (strcmp(key, "ksm.advisor_mode") == 0) {
		s->advisor_scan_time = strcmp(value, "scan-time") == 0;
		return;
	}
	for (size_t i = 0; i < NNUMBERS; i++)
		if (strcmp(key, numbers[i].key) == 0) {
			struct capture_setting *to = number_at(s, i);
			char *end;
			errno = 0;
			long long v = strtoll(value, &end, 10);
			int whole = end != value && *end == '\0' && errno == 0 && (value[0] == '-' || (value[0] >= '0' && value[0] <= '9'));
			if (whole && v >= numbers[i].range.min && v <= numbers[i].range.max) {
				to->value = v;
			} else {
				to->value = CAPTURE_SETTING_ODD;
				snprintf(to->text, sizeof(to->text), "%s", value);
			}
		}
}

int capture_note_system(struct capture_note *n, const unsigned char *desc, size_t len, struct kb_err *err)
{
	char text[KB_NOTE_SYSTEM_MAX + 1], *line, *save = NULL;

	if (len > KB_NOTE_SYSTEM_MAX)
		return kb_fail(err, "its system note is %zu bytes (at most %u)", len, KB_NOTE_SYSTEM_MAX);
	memcpy(text, desc, len);
	text[len] = '\0';
	if (strncmp(text, KB_NOTE_SYSTEM_TAG "\n", strlen(KB_NOTE_SYSTEM_TAG) + 1) != 0)
		return kb_fail(err, "its system note does not start with '%s'", KB_NOTE_SYSTEM_TAG);
	n->has_system = 1;
	for (line = strtok_r(text + strlen(KB_NOTE_SYSTEM_TAG) + 1, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		system_value(&n->system, line, eq + 1);
	}
	return 0;
}

int capture_note_pages_header(struct capture_note *n, const unsigned char *d, uint64_t len, int big,
			      struct kb_err *err)
{
	if (len < KB_NOTE_PAGES_HEADER)
		return kb_fail(err, "its page note is %llu bytes, shorter than its %u-byte header", (unsigned long long)len,
			       KB_NOTE_PAGES_HEADER);
	uint32_t version = kb_get32(d, big);
	if (version != KB_NOTE_PAGES_VERSION)
		return kb_fail(err, "its page note has version %u (this ksmbench reads %u)", version,
			       KB_NOTE_PAGES_VERSION);
	n->flags = kb_get32(d + 4, big);
	n->page_size = kb_get32(d + 8, big);
	n->pages = kb_get64(d + 16, big);
	n->zero_page_mapped = kb_get64(d + 24, big);
	n->interval_ns = kb_get64(d + 32, big);
	if (n->pages != (len - KB_NOTE_PAGES_HEADER) / 8 || (len - KB_NOTE_PAGES_HEADER) % 8)
		return kb_fail(err, "its page note announces %llu pages but holds %llu bytes of entries",
			       (unsigned long long)n->pages, (unsigned long long)(len - KB_NOTE_PAGES_HEADER));
	if (n->page_size < 512 || (n->page_size & (n->page_size - 1)))
		return kb_fail(err, "its page note gives page size %u", n->page_size);
	n->has_pages = 1;
	return 0;
}

void capture_note_entries(uint64_t *entries, size_t count, int big)
{
	for (size_t i = 0; i < count; i++) {
		unsigned char b[8];
		memcpy(b, &entries[i], 8);
		entries[i] = kb_get64(b, big);
	}
}

static size_t pad4(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

size_t capture_note_encode(uint32_t type, const void *desc, size_t desc_len, unsigned char *buf, size_t cap)
{
	uint32_t head[3] = { (uint32_t)sizeof(KB_NOTE_NAME), (uint32_t)desc_len, type };
	size_t name_at = sizeof(head), desc_at = name_at + pad4(sizeof(KB_NOTE_NAME));
	size_t total = desc_at + pad4(desc_len);

	if (!desc)
		total = desc_at;
	if (!buf || cap < total)
		return total;
	memset(buf, 0, total);
	memcpy(buf, head, sizeof(head));
	memcpy(buf + name_at, KB_NOTE_NAME, sizeof(KB_NOTE_NAME));
	if (desc && desc_len)
		memcpy(buf + desc_at, desc, desc_len);
	return total;
}
