// libFuzzer's driver, for an entry point that must run the fuzzer itself.
// SwiftPM links an executable target with `main` defined as `<Target>_main`
// (-entry-point-function-name), which `-parse-as-library` leaves undefined; each
// …Fuzzer target defines `<Target>_main` and hands control to libFuzzer here.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
