/* ksmbench list: the registered hashes, whether this CPU runs them, and where
 * they come from. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../hashes/cpu_features.h"
#include "../hashes/hash.h"
#include "../report/table.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: ksmbench list [--format table|json] [--names]\n\n"
	       "Lists every registered hash: name, output bits, whether this CPU can run it\n"
	       "(and the missing features if not), provenance and description.\n");
}

static void availability(const struct hash_impl *h, char *buf, size_t size)
{
	char feats[128];
	uint32_t missing = hash_missing_features(h);

	/* Code not built (other architecture, library not packaged) first: its
	 * features may well be present. */
	if (!hash_resolve(h)->fn)
		snprintf(buf, size, "no (not built for this architecture)");
	else if (!missing)
		snprintf(buf, size, "yes");
	else
		snprintf(buf, size, "no (needs %s)", cpu_features_names(missing, feats, sizeof(feats)));
}

static int print_table(void)
{
	struct table *t = table_new(5, "lrlll");
	char bits[16], avail[160], prov[96];
	int rc = 0;

	if (!t || table_add_rowf(t, "NAME", "BITS", "AVAILABLE", "PROVENANCE", "DESCRIPTION"))
		rc = -1;
	for (unsigned i = 0; rc == 0 && i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i];
		snprintf(bits, sizeof(bits), "%u", hash_resolve(h)->bits);
		availability(h, avail, sizeof(avail));
		hash_provenance(h, prov, sizeof(prov));
		rc = table_add_rowf(t, h->name, bits, avail, prov, h->description);
	}
	if (rc == 0)
		rc = table_print(t, stdout);
	table_free(t);
	return rc;
}

static int print_json(void)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "hashes");
	char feats[128], prov[96];
	int rc = 0;

	for (unsigned i = 0; arr && i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i], *r = hash_resolve(h);
		uint32_t missing = hash_missing_features(h);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", h->name);
		cJSON_AddNumberToObject(o, "bits", r->bits);
		cJSON_AddBoolToObject(o, "available", !missing && r->fn);
		cJSON_AddStringToObject(o, "missing_features", cpu_features_names(missing, feats, sizeof(feats)));
		cJSON_AddStringToObject(o, "needs_features", cpu_features_names(r->cpu_needs, feats, sizeof(feats)));
		cJSON_AddStringToObject(o, "provenance", hash_provenance(h, prov, sizeof(prov)));
		if (r != h)
			cJSON_AddStringToObject(o, "alias_of", r->name);
		else
			cJSON_AddNullToObject(o, "alias_of");
		cJSON_AddStringToObject(o, "family", r->family);
		cJSON_AddStringToObject(o, "description", h->description);
	}
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
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "table";
	int c, names = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		case 'n': names = 1; break;
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
	if ((strcmp(format, "json") == 0 ? print_json() : print_table()) != 0)
		return cli_error("list", "cannot write the list");
	return KB_EXIT_OK;
}
