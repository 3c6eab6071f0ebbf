/* ksmbench list: the registered hashes, whether this CPU runs them, whether
 * the kernel runs them, and where they come from. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../hashes/alias.h"
#include "../hashes/cpu_features.h"
#include "../hashes/hash.h"
#include "../hashes/impls.h"
#include "../report/table.h"
#include "cli.h"

#define LIST_COLUMNS 100 /* the default table fits a terminal of this width */

static void usage(void)
{
	printf("usage: ksmbench list [--format table|json] [--wide] [--names]\n\n"
	       "Lists every registered hash: whether this CPU can run it (and why not),\n"
	       "whether and since when the kernel runs it, provenance, and for the aliases\n"
	       "which implementation they stand for and how that was chosen (the CPU table\n"
	       "of docs/hashes.md, or a measurement at start-up). The table fits 100\n"
	       "columns; --wide adds bits, the kernel function, the rule and the description.\n");
}

static void availability(const struct hash_impl *h, char *buf, size_t size)
{
	char why[160];

	if (hash_unavailable_reason(h, why, sizeof(why)))
		snprintf(buf, size, "no (%s)", why);
	else
		snprintf(buf, size, "yes");
}

/* An alias's own kernel use (xxhash() is one), else its target's. */
static const struct hash_kernel_use *kernel_use(const struct hash_impl *h)
{
	return h->kernel.function ? &h->kernel : &hash_resolve(h)->kernel;
}

/* "5.0+", "2.6.32-4.20", "yes" (long-standing), "no". */
static void kernel_short(const struct hash_impl *h, char *buf, size_t size)
{
	const struct hash_kernel_use *k = kernel_use(h);

	if (!k->function)
		snprintf(buf, size, "no");
	else if (k->since && k->until)
		snprintf(buf, size, "%s-%s", k->since, k->until);
	else if (k->since)
		snprintf(buf, size, "%s+", k->since);
	else
		snprintf(buf, size, "yes");
}

/* Aliases: what they stand for and how it was chosen; others: provenance. */
static void note(const struct hash_impl *h, int wide, char *buf, size_t size)
{
	const struct alias_choice *c = alias_choice(h);
	char prov[240];

	if (c && !wide)
		snprintf(buf, size, "= %s", c->target->name); /* how: in the lines below the table */
	else if (c)
		snprintf(buf, size, "%s: %s", c->target->name, alias_choice_describe(c, prov, sizeof(prov)));
	else if (wide)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%s", hash_provenance(h, prov, sizeof(prov)));
}

/* Cuts s to at most width characters, marking the cut. */
static void fit(char *s, size_t width)
{
	if (strlen(s) > width && width >= 3)
		strcpy(s + width - 3, "...");
}

static int add_row(struct table *t, const struct hash_impl *h, int wide, size_t note_width)
{
	char bits[16], avail[200], kern[32], nt[300], prov[96];
	const struct hash_impl *r = hash_resolve(h);

	availability(h, avail, sizeof(avail));
	kernel_short(h, kern, sizeof(kern));
	note(h, wide, nt, sizeof(nt));
	if (!wide) {
		fit(nt, note_width);
		return table_add_rowf(t, h->name, avail, kern, nt);
	}
	snprintf(bits, sizeof(bits), "%u", r->bits);
	return table_add_rowf(t, h->name, bits, avail, kern, kernel_use(h)->function ? kernel_use(h)->function : "-",
			      hash_provenance(h, prov, sizeof(prov)), nt, h->description);
}

/* Room left for the last column of the default table. */
static size_t note_room(void)
{
	size_t name = 4, avail = 9, kern = 9;
	char buf[200];

	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i];
		size_t n = strlen(h->name);
		name = n > name ? n : name;
		availability(h, buf, sizeof(buf));
		avail = strlen(buf) > avail ? strlen(buf) : avail;
		kernel_short(h, buf, sizeof(buf));
		kern = strlen(buf) > kern ? strlen(buf) : kern;
	}
	size_t used = name + avail + kern + 3 * 2;
	return used + 12 < LIST_COLUMNS ? LIST_COLUMNS - used : 12;
}

/* How each alias chose, and the kernel's own crc32c choice, a line each. */
static int print_footer(void)
{
	static const struct hash_impl *const aliases[] = { &hash_crc32c, &hash_xxh3, &hash_xxh128 };
	char line[400], how[300];
	const char *why;
	int rc = printf("\n") < 0;

	for (size_t i = 0; rc == 0 && i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const struct alias_choice *c = alias_choice(aliases[i]);
		snprintf(line, sizeof(line), "%s = %s, %s", aliases[i]->name, c->target->name,
			 alias_choice_describe(c, how, sizeof(how)));
		fit(line, LIST_COLUMNS);
		rc = printf("%s\n", line) < 0;
	}
	const struct hash_impl *k = hash_kernel_crc32c(4096, &why);
	snprintf(line, sizeof(line), "The kernel's crc32c() on this CPU at 4 KiB: %s (%s).", k->name, why);
	fit(line, LIST_COLUMNS);
	if (rc == 0)
		rc = printf("%s\nKERNEL: releases that run it (KSM used jhash2, then xxhash); --wide for details.\n",
			    line) < 0;
	return rc;
}

static int print_table(int wide)
{
	struct table *t = wide ? table_new(8, "lrllllll") : table_new(4, "llll");
	size_t room = note_room();
	int rc = 0;

	if (!t)
		return -1;
	rc = wide ? table_add_rowf(t, "NAME", "BITS", "AVAILABLE", "KERNEL", "KERNEL FUNCTION", "PROVENANCE",
				   "ALIAS OF / CHOSEN BY", "DESCRIPTION")
		  : table_add_rowf(t, "NAME", "AVAILABLE", "KERNEL", "PROVENANCE");
	for (unsigned i = 0; rc == 0 && i < hash_registry_count; i++)
		rc = add_row(t, hash_registry[i], wide, room);
	if (rc == 0)
		rc = table_print(t, stdout);
	table_free(t);
	if (rc == 0 && !wide)
		rc = print_footer();
	return rc;
}

static cJSON *kernel_json(const struct hash_kernel_use *k)
{
	cJSON *o = cJSON_CreateObject();

	if (k->function)
		cJSON_AddStringToObject(o, "function", k->function);
	else
		cJSON_AddNullToObject(o, "function");
	cJSON_AddBoolToObject(o, "in_kernel", k->function != NULL);
	if (k->since)
		cJSON_AddStringToObject(o, "since", k->since);
	else
		cJSON_AddNullToObject(o, "since");
	if (k->until)
		cJSON_AddStringToObject(o, "until", k->until);
	else
		cJSON_AddNullToObject(o, "until");
	cJSON_AddStringToObject(o, "note", k->note ? k->note : "");
	return o;
}

static void alias_json(cJSON *o, const struct hash_impl *h)
{
	const struct alias_choice *c = alias_choice(h);
	static const char *const how[] = { "table", "measurement", "only candidate" };
	char buf[300];

	if (!c) {
		cJSON_AddNullToObject(o, "chosen_by");
		return;
	}
	cJSON_AddStringToObject(o, "chosen_by", how[c->how]);
	cJSON_AddStringToObject(o, "choice", alias_choice_describe(c, buf, sizeof(buf)));
	if (c->how == ALIAS_BY_TABLE)
		cJSON_AddStringToObject(o, "choice_evidence", c->rule->evidence);
	if (c->how == ALIAS_BY_MEASUREMENT) {
		cJSON *m = cJSON_AddObjectToObject(o, "measured_bytes_per_second");
		for (unsigned i = 0; m && i < c->ncandidates; i++)
			cJSON_AddNumberToObject(m, c->candidates[i]->name, c->bytes_per_s[i]);
	}
}

static cJSON *entry_json(const struct hash_impl *h)
{
	const struct hash_impl *r = hash_resolve(h);
	uint32_t missing = hash_missing_features(h);
	char feats[128], prov[96], why[160];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", h->name);
	cJSON_AddNumberToObject(o, "bits", r->bits);
	cJSON_AddBoolToObject(o, "available", hash_available(h));
	if (hash_unavailable_reason(h, why, sizeof(why)))
		cJSON_AddStringToObject(o, "unavailable_reason", why);
	else
		cJSON_AddNullToObject(o, "unavailable_reason");
	cJSON_AddStringToObject(o, "missing_features", cpu_features_names(missing, feats, sizeof(feats)));
	cJSON_AddStringToObject(o, "needs_features", cpu_features_names(r->cpu_needs, feats, sizeof(feats)));
	cJSON_AddStringToObject(o, "provenance", hash_provenance(h, prov, sizeof(prov)));
	if (r != h)
		cJSON_AddStringToObject(o, "alias_of", r->name);
	else
		cJSON_AddNullToObject(o, "alias_of");
	alias_json(o, h);
	cJSON_AddStringToObject(o, "family", r->family);
	cJSON_AddItemToObject(o, "kernel", kernel_json(kernel_use(h)));
	cJSON_AddStringToObject(o, "description", h->description);
	return o;
}

static int print_json(void)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "hashes");
	const char *why;
	const struct hash_impl *k = hash_kernel_crc32c(4096, &why);
	int rc = 0;

	for (unsigned i = 0; arr && i < hash_registry_count; i++)
		cJSON_AddItemToArray(arr, entry_json(hash_registry[i]));
	cJSON *kc = cJSON_AddObjectToObject(root, "kernel_crc32c");
	cJSON_AddNumberToObject(kc, "page_size", 4096);
	cJSON_AddStringToObject(kc, "name", k->name);
	cJSON_AddStringToObject(kc, "reason", why);
	char *text = arr ? cJSON_Print(root) : NULL;
	if (!text)
		rc = -1;
	else if (printf("%s\n", text) < 0)
		rc = -1;
	free(text);
	cJSON_Delete(root);
	return rc;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "names", no_argument, NULL, 'n' },
		{ "wide", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "table";
	int c, names = 0, wide = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		case 'n': names = 1; break;
		case 'w': wide = 1; break;
		default: return cli_bad_option("list", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("list", "unexpected argument '%s'", argv[optind]);
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
		return cli_error("list", "unknown format '%s' (table or json)", format);
	if (names) { /* for shell completion */
		for (unsigned i = 0; i < hash_registry_count; i++)
			printf("%s\n", hash_registry[i]->name);
		return fflush(stdout) == 0 ? KB_EXIT_OK : cli_error("list", "cannot write the list");
	}
	if ((strcmp(format, "json") == 0 ? print_json() : print_table(wide)) != 0)
		return cli_error("list", "cannot write the list");
	return KB_EXIT_OK;
}
