// The declaration in include/CFuzzDriver.h is all this module offers: libFuzzer defines the
// function. SwiftPM needs one source file to make a C target.
#include "CFuzzDriver.h"
