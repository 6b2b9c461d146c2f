#pragma once
// RapidJSON for the whole project: include this instead of <rapidjson/...>.
// Debian's RapidJSON 1.1.0 adds an offset to the null pointer of an empty internal stack
// (internal/stack.h, Stack::Reserve, on the first push of every parse): harmless in practice, but
// undefined behaviour that clang's UBSan (pointer-overflow) reports on every parse, which would hide
// real findings of the fuzzers and the sanitizer build. Under clang, RapidJSON's functions are compiled
// without that one check; every other check stays on, and our own code keeps all of them. The standard
// headers RapidJSON uses come first, outside that region.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iosfwd>
#include <iterator>
#include <limits>
#include <new>
#include <string>
#include <utility>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("pointer-overflow"))), apply_to = function)
#endif
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/rapidjson.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#if defined(__clang__)
#pragma clang attribute pop
#endif
