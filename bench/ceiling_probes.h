/* The micro-loops behind bench/ceiling.c, each in the translation unit of
 * its instruction set (Makefile: FLAGS_bench/ceiling_*.c); called only where
 * CPUID reports what they need. Each runs `iters` iterations and adds its
 * results to *sink so that nothing is optimized away. */
#ifndef KB_CEILING_PROBES_H
#define KB_CEILING_PROBES_H

#include <stddef.h>
#include <stdint.h>

typedef void (*ceiling_loop_fn)(uint64_t iters, uint64_t *sink);

/* ceiling_scalar.c: 8 dependent adds per iteration (any architecture). */
void ceiling_add_chain(uint64_t iters, uint64_t *sink);

/* Streamed read of buf[0..bytes) with 64-bit loads (any architecture). */
uint64_t ceiling_read_u64(const unsigned char *buf, size_t bytes);
/* Reads buf as CEILING_STREAMS sequential streams side by side (its parts
 * of bytes / CEILING_STREAMS, a 64-byte line of each in turn, one load a
 * line): the memory bandwidth one core gets (docs/ceilings.md says why not
 * one stream). */
#define CEILING_STREAMS 4
uint64_t ceiling_read_streams(const unsigned char *buf, size_t bytes);

/* ceiling_x86_128.c (-msse4.2 -mpclmul, x86-64): 12 crc32q, 8 dependent
 * crc32q, one 4 KiB page's chain of CEILING_PAGE_QWORDS crc32q; per
 * ceiling_vec.h 8 pclmulqdq, 6 crc32q + 4 pclmulqdq, a fused
 * crc32c loop (4 folds and 12 crc32q, or 6: light, 24: wide, 36: deep and nine), 8 pmuludq, one XXH3 stripe (4 xmm
 * lanes), one XXH3 block (16 stripes + scramble), 8 loads per iteration. */
void ceiling_crc32_tput(uint64_t iters, uint64_t *sink);
void ceiling_crc32_lat(uint64_t iters, uint64_t *sink);
#define CEILING_PAGE_QWORDS 512
void ceiling_crc32_page_chain(uint64_t iters, uint64_t *sink);
void ceiling_clmul_xmm(uint64_t iters, uint64_t *sink);
void ceiling_mixed_xmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_xmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_light_xmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_wide_xmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_deep_xmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_nine_xmm(uint64_t iters, uint64_t *sink);
void ceiling_mul32_xmm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_xmm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_block_xmm(uint64_t iters, uint64_t *sink);
void ceiling_load_xmm(uint64_t iters, uint64_t *sink);

/* ceiling_x86_256.c (-mavx2 -mvpclmulqdq): the ymm counterparts. */
void ceiling_clmul_ymm(uint64_t iters, uint64_t *sink);
void ceiling_mixed_ymm(uint64_t iters, uint64_t *sink);
void ceiling_fused_ymm(uint64_t iters, uint64_t *sink);
void ceiling_fused_light_ymm(uint64_t iters, uint64_t *sink);
void ceiling_fused_wide_ymm(uint64_t iters, uint64_t *sink);
void ceiling_fused_deep_ymm(uint64_t iters, uint64_t *sink);
void ceiling_fused_nine_ymm(uint64_t iters, uint64_t *sink);
void ceiling_mul32_ymm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_ymm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_block_ymm(uint64_t iters, uint64_t *sink);
void ceiling_load_ymm(uint64_t iters, uint64_t *sink);

/* ceiling_x86_512.c (-mavx512f -mvpclmulqdq): the zmm counterparts. */
void ceiling_clmul_zmm(uint64_t iters, uint64_t *sink);
void ceiling_mixed_zmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_zmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_light_zmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_wide_zmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_deep_zmm(uint64_t iters, uint64_t *sink);
void ceiling_fused_nine_zmm(uint64_t iters, uint64_t *sink);
void ceiling_mul32_zmm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_zmm(uint64_t iters, uint64_t *sink);
void ceiling_xxh3_block_zmm(uint64_t iters, uint64_t *sink);
void ceiling_load_zmm(uint64_t iters, uint64_t *sink);

/* The L1-resident buffer the load and XXH3 probes read (ceiling_scalar.c). */
#define CEILING_L1_BYTES 16384
extern unsigned char ceiling_l1_buf[CEILING_L1_BYTES + 256];

#endif
