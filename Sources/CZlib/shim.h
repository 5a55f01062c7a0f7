#ifndef RASTERKIT_CZLIB_SHIM_H
#define RASTERKIT_CZLIB_SHIM_H
// zlib, to inflate gzip-compressed SVG (SVGZ) under a size limit before librsvg sees it.
#include <zlib.h>

/// `inflateInit2` is a macro; Swift cannot call it. Window bits 15 + 32 accept zlib and gzip.
static inline int rk_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
#endif
