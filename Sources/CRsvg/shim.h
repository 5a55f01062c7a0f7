#ifndef RASTERKIT_CRSVG_SHIM_H
#define RASTERKIT_CRSVG_SHIM_H

#include <librsvg/rsvg.h>

#endif
