# fuzz.mk — `make fuzz`: short libFuzzer runs (clang) on everything that reads untrusted bytes:
#   fuzz_table    the UECda table decoder and submission parser (bytes from a network peer)
#   fuzz_kifu     the kifu reader and replay check (record files)
#   fuzz_results  the results CSV reader, and rating what it accepts (dhm rate FILE.csv)
#   fuzz_pack     the packed game records of the results store (dhm records export)
#   fuzz_review   the game analyses stored with a run (dhm view --analyze --save, dhm report)
# FUZZ_SECONDS sets the length of each run (default 15). The library is built once with the
# sanitizers into build-fuzz/ by the main Makefile.
FUZZ_SECONDS ?= 15
O := build-fuzz
TARGETS := fuzz_table fuzz_kifu fuzz_results fuzz_pack fuzz_review
FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

.PHONY: run lib seeds
run: $(TARGETS:%=$(O)/%) seeds
	@for t in $(TARGETS); do \
	  mkdir -p $(O)/corpus-$$t; \
	  echo "== $$t ($(FUZZ_SECONDS) s)"; \
	  $(O)/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=0 $(O)/corpus-$$t 2>&1 | tail -n 2 || exit 1; \
	done

# Starting points, so the runs begin from valid inputs: a short kifu (blaux5's first games when
# ../shared is there), a results CSV of each kind.
seeds: $(O)/seed_pack
	@mkdir -p $(O)/corpus-fuzz_kifu $(O)/corpus-fuzz_results $(O)/corpus-fuzz_pack
	@$(O)/seed_pack $(O)/corpus-fuzz_pack/seed
	@if [ -f ../shared/data/blaux5.kifu ]; then head -n 20 ../shared/data/blaux5.kifu > $(O)/corpus-fuzz_kifu/seed; fi
	@printf 'set,order,player,points\n1,1,a,10\n1,1,b,9\n1,1,c,8\n1,1,d,7\n1,1,e,6\n' > $(O)/corpus-fuzz_results/sets
	@printf 'game,player,rank,p\n1,a,1,0.6\n1,b,2,0.4\n2,a,2,0.5\n2,b,1,0.5\n' > $(O)/corpus-fuzz_results/games

lib:
	@$(MAKE) --no-print-directory O=$(O) CC=clang OPT=-O1 CPUFLAGS= EXTRA_CFLAGS="$(FLAGS)" $(O)/libdhm.a

$(O)/seed_pack: fuzz/seed_pack.c lib
	clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -I. -Wall -Wextra -Werror \
	  -fsanitize=address,undefined -o $@ $< $(O)/libdhm.a -lsqlite3 -lpthread -lm

$(O)/fuzz_%: fuzz/fuzz_%.c lib
	clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -I. -Wall -Wextra -Werror \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< $(O)/libdhm.a -lsqlite3 -lpthread -lm
