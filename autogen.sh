#!/bin/sh
# Generate configure and Makefile.in; needs autoconf, automake and
# autoconf-archive (for AX_PTHREAD and AX_CHECK_COMPILE_FLAG).
set -e
cd "$(dirname "$0")"
exec autoreconf -fi
