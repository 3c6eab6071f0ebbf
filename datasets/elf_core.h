/* ELF core files (QEMU dump-guest-memory, virsh dump --memory-only, gdb
 * gcore, ksmbench capture), 32- or 64-bit, either byte order: the pages of
 * every PT_LOAD segment. */
#ifndef KB_ELF_CORE_H
#define KB_ELF_CORE_H

#include "page_source.h"
#include "stream.h"

/* 1 when the first bytes are an ELF identification. */
int elf_core_detect(const unsigned char *head, size_t len);

/* The dump table's entry (dump.h): takes over a->stream. Pages are yielded
 * in file order, segment by segment, at p_paddr + k * page_size when any
 * segment has a non-zero p_paddr (a physical dump), else at p_vaddr + k *
 * page_size. */
struct dump_open;
struct page_source *elf_core_open(const struct dump_open *a, struct kb_err *err);

#endif
