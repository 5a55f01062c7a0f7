#ifndef RASTERKIT_CPNG_SHIM_H
#define RASTERKIT_CPNG_SHIM_H

// libpng reports errors with longjmp. A longjmp across Swift frames skips Swift's cleanup, so
// every libpng call that can fail runs inside these two C functions, each of which owns its
// setjmp. Swift supplies rows and receives pixels through callbacks that never call libpng.

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    RK_PNG_OK = 0,
    RK_PNG_LIBPNG_ERROR = 1,   // message holds libpng's text
    RK_PNG_REFUSED = 2,        // the allocate callback declined the image size
    RK_PNG_NOT_PNG = 3,        // the signature is missing
    RK_PNG_OUT_OF_MEMORY = 4
};

typedef struct rk_png_text { const char *key; const char *value; } rk_png_text;

typedef struct rk_png_buffer { unsigned char *data; size_t length; size_t capacity; } rk_png_buffer;

typedef void (*rk_png_row_fn)(void *context, uint32_t y, unsigned char *row);

typedef struct rk_png_encode_options {
    uint32_t width;
    uint32_t height;
    int has_alpha;             // RGBA when set, RGB otherwise
    int compression_level;     // zlib level 0...9
    int compression_strategy;  // zlib strategy
    int filters;               // mask of PNG_FILTER_* values
    uint32_t pixels_per_meter; // 0 writes no pHYs chunk
    const rk_png_text *texts;
    int text_count;
    rk_png_row_fn fill_row;    // fills one row of 8-bit RGB(A) samples
    void *context;
} rk_png_encode_options;

typedef struct rk_png_failure { char message[256]; } rk_png_failure;

static void rk_png_on_error(png_structp png, png_const_charp text) {
    rk_png_failure *failure = (rk_png_failure *)png_get_error_ptr(png);
    if (failure) snprintf(failure->message, sizeof failure->message, "%s", text);
    png_longjmp(png, 1);
}

static void rk_png_on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void rk_png_append(png_structp png, png_bytep data, size_t length) {
    rk_png_buffer *buffer = (rk_png_buffer *)png_get_io_ptr(png);
    if (length > SIZE_MAX - buffer->length) png_error(png, "output too large");
    size_t needed = buffer->length + length;
    if (needed > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 8192;
        while (capacity < needed) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length = needed;
}

static void rk_png_flush(png_structp png) { (void)png; }

/// Encodes one 8-bit RGB or RGBA image into `output` (malloc'd; the caller frees `data`).
static inline int rk_png_encode(const rk_png_encode_options *options, rk_png_buffer *output,
                                rk_png_failure *failure) {
    size_t channels = options->has_alpha ? 4 : 3;
    unsigned char *row = (unsigned char *)malloc((size_t)options->width * channels);
    if (!row) return RK_PNG_OUT_OF_MEMORY;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, failure, rk_png_on_error,
                                              rk_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        free(row);
        return RK_PNG_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return RK_PNG_LIBPNG_ERROR;
    }
    png_set_write_fn(png, output, rk_png_append, rk_png_flush);
    png_set_compression_level(png, options->compression_level);
    png_set_compression_strategy(png, options->compression_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options->filters);
    png_set_IHDR(png, info, options->width, options->height, 8,
                 options->has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (options->pixels_per_meter > 0) {
        png_set_pHYs(png, info, options->pixels_per_meter, options->pixels_per_meter,
                     PNG_RESOLUTION_METER);
    }
    if (options->text_count > 0) {
        png_text texts[8];
        int count = options->text_count < 8 ? options->text_count : 8;
        for (int index = 0; index < count; index++) {
            memset(&texts[index], 0, sizeof texts[index]);
            texts[index].compression = PNG_TEXT_COMPRESSION_NONE;
            texts[index].key = (png_charp)options->texts[index].key;
            texts[index].text = (png_charp)options->texts[index].value;
            texts[index].text_length = strlen(options->texts[index].value);
        }
        png_set_text(png, info, texts, count);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < options->height; y++) {
        options->fill_row(options->context, y, row);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    return RK_PNG_OK;
}

typedef struct rk_png_source { const unsigned char *data; size_t length; size_t offset; } rk_png_source;

static void rk_png_read_from_memory(png_structp png, png_bytep out, size_t length) {
    rk_png_source *source = (rk_png_source *)png_get_io_ptr(png);
    if (length > source->length - source->offset) png_error(png, "unexpected end of data (truncated PNG)");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

/// Returns a buffer of width × height × 4 bytes for straight RGBA rows, or NULL to refuse.
typedef unsigned char *(*rk_png_allocate_fn)(void *context, uint32_t width, uint32_t height);
typedef void (*rk_png_text_fn)(void *context, const char *key, const char *value, size_t length);

/// Decodes any PNG (every colour type and bit depth, tRNS, interlaced) into straight 8-bit RGBA
/// without gamma conversion: samples are taken as stored, as PNG viewers and pixelmatch do.
///
/// `limits` bounds what libpng itself allocates before `allocate` is asked for pixels: a chunk
/// whose length field claims 2 GiB must fail on that field, not after libpng has tried to
/// allocate it, and a stream of thousands of tiny text chunks must not be kept one by one.
typedef struct rk_png_decode_limits {
    uint32_t maximum_side;         // png_set_user_limits, for width and height
    size_t maximum_chunk_bytes;    // png_set_chunk_malloc_max: ancillary chunks, inflated zTXt/iCCP
    uint32_t maximum_cached_chunks; // png_set_chunk_cache_max: text, sPLT and unknown chunks kept
} rk_png_decode_limits;

static inline int rk_png_decode(const unsigned char *data, size_t length,
                                const rk_png_decode_limits *limits,
                                rk_png_allocate_fn allocate, rk_png_text_fn on_text,
                                void *context, rk_png_failure *failure) {
    if (length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) return RK_PNG_NOT_PNG;
    rk_png_source source = { data, length, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, failure, rk_png_on_error,
                                             rk_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return RK_PNG_OUT_OF_MEMORY;
    }
    png_bytep *volatile rows = NULL;
    volatile int refused = 0;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free((void *)rows);
        return refused ? RK_PNG_REFUSED : RK_PNG_LIBPNG_ERROR;
    }
    png_set_read_fn(png, &source, rk_png_read_from_memory);
    png_set_user_limits(png, limits->maximum_side, limits->maximum_side);
    png_set_chunk_malloc_max(png, limits->maximum_chunk_bytes);
    png_set_chunk_cache_max(png, limits->maximum_cached_chunks);
#ifdef PNG_IGNORE_ADLER32
    // Every chunk's CRC-32 is still verified; zlib's Adler-32 over the same bytes adds nothing
    // but time (a sixth of a small image's decode).
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unsupported pixel layout");

    unsigned char *pixels = allocate(context, width, height);
    if (!pixels) {
        refused = 1;
        png_error(png, "image refused");
    }
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (!rows) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, info);

    png_textp texts = NULL;
    int text_count = 0;
    png_get_text(png, info, &texts, &text_count);
    for (int index = 0; index < text_count; index++) {
        on_text(context, texts[index].key, texts[index].text, texts[index].text_length);
    }
    png_destroy_read_struct(&png, &info, NULL);
    free((void *)rows);
    return RK_PNG_OK;
}

#endif
