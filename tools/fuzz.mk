# fuzz.mk — `make fuzz`: a short libFuzzer run on the UECda table decoder (needs clang).
# FUZZ_SECONDS sets the length of the run (default 30).
FUZZ_SECONDS ?= 30
O := build-fuzz
SRC := fuzz/fuzz_table.c net/table.c core/move.c core/movegen.c core/cards.c
CFLAGS := -std=c11 -D_DEFAULT_SOURCE -g -O1 -I. -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined

.PHONY: run
run: $(O)/fuzz_table
	@mkdir -p $(O)/corpus
	$(O)/fuzz_table -max_total_time=$(FUZZ_SECONDS) -max_len=512 $(O)/corpus

$(O)/fuzz_table: $(SRC) net/table.h core/move.h core/movegen.h core/cards.h
	@mkdir -p $(O)
	clang $(CFLAGS) -o $@ $(SRC)
