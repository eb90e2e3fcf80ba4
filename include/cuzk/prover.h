/*
 * rapidsnark's header name: a program that includes "prover.h" builds
 * against libcuzk unchanged (compile with -I<prefix>/include/cuzk, link
 * with -lcuzk). The declarations, and how libcuzk differs, are in cuzk.h.
 */
#ifndef CUZK_PROVER_H
#define CUZK_PROVER_H
#include "cuzk.h"
#endif
