#ifndef RASTERKIT_CWEBP_SHIM_H
#define RASTERKIT_CWEBP_SHIM_H

#include <webp/encode.h>
#include <webp/decode.h>

#endif
