# fuzz.mk — `make fuzz`: short libFuzzer runs (clang) on everything that reads untrusted bytes:
#   fuzz_table    the UECda table decoder and submission parser (bytes from a network peer)
#   fuzz_kifu     the kifu reader and replay check (record files)
#   fuzz_results  the results CSV reader, and rating what it accepts (dhm rate FILE.csv)
#   fuzz_pack     the packed game records of the results store (dhm records export)
#   fuzz_review   the game analyses stored with a run (dhm view --analyze --save, dhm report)
#   fuzz_policy   the policy weights reader (policy:weights=FILE, mc:weights=FILE)
#   fuzz_rich     the rich policy's weights reader (a rich policy:weights=FILE, mc:prior-weights=FILE)
#   fuzz_estmodel the estimation model reader (mc:est=weights:est-model=FILE)
#   fuzz_estnet   the learned estimator's model reader (mc:est=net:est-model=FILE)
#   fuzz_estseq   its sequence model's reader (mc:est=net:est-seq=1:est-model=FILE)
#   fuzz_deals    the deal-list reader, plain lists and kifu files (--deals FILE)
# FUZZ_SECONDS sets the length of each run (default 15); FUZZ_TARGETS picks some of them. Each
# run prints libFuzzer's last lines ("Done N runs in S second(s)": N is the executions count);
# a finding fails the target (its input is left in build-fuzz/). The library is built once
# with the sanitizers into build-fuzz/ by the main Makefile.
FUZZ_SECONDS ?= 15
O := build-fuzz
TARGETS := fuzz_table fuzz_kifu fuzz_results fuzz_pack fuzz_review fuzz_policy fuzz_rich fuzz_estmodel fuzz_estnet fuzz_estseq fuzz_deals
FUZZ_TARGETS ?= $(TARGETS)
FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

.PHONY: run lib seeds
run: $(FUZZ_TARGETS:%=$(O)/%) seeds
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(O)/corpus-$$t; \
	  echo "== $$t ($(FUZZ_SECONDS) s)"; \
	  len=4096; [ $$t = fuzz_policy ] && len=20000; [ $$t = fuzz_rich ] && len=8192; : a whole weights file is 2,543 numbers; \
	  ( cd $(O) && ./$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$len -print_final_stats=0 corpus-$$t > $$t.log 2>&1 ); \
	  rc=$$?; grep -E 'Done [0-9]+ runs|ERROR|runtime error|SUMMARY' $(O)/$$t.log | tail -n 3; \
	  if [ $$rc != 0 ]; then echo "$$t: a finding (exit $$rc): $(O)/$$t.log, the input in $(O)/"; exit 1; fi; \
	done

# Starting points, so the runs begin from valid inputs: a short kifu (blaux5's first games when
# ../shared is there), a results CSV of each kind, the built-in weights and model, deal lists.
seeds: $(O)/seed_pack
	@mkdir -p $(O)/corpus-fuzz_kifu $(O)/corpus-fuzz_results $(O)/corpus-fuzz_pack $(O)/corpus-fuzz_policy \
	  $(O)/corpus-fuzz_rich $(O)/corpus-fuzz_estmodel $(O)/corpus-fuzz_estnet $(O)/corpus-fuzz_estseq $(O)/corpus-fuzz_deals
	@$(O)/seed_pack $(O)/corpus-fuzz_pack/seed
	@if [ -f ../shared/data/blaux5.kifu ]; then head -n 20 ../shared/data/blaux5.kifu > $(O)/corpus-fuzz_kifu/seed; \
	  head -n 20 ../shared/data/blaux5.kifu > $(O)/corpus-fuzz_deals/kifu; fi
	@printf 'set,order,player,points\n1,1,a,10\n1,1,b,9\n1,1,c,8\n1,1,d,7\n1,1,e,6\n' > $(O)/corpus-fuzz_results/sets
	@printf 'game,player,rank,p\n1,a,1,0.6\n1,b,2,0.4\n2,a,2,0.5\n2,b,1,0.5\n' > $(O)/corpus-fuzz_results/games
	@cp players/policy.weights $(O)/corpus-fuzz_policy/builtin
	@head -c 6000 players/rich.weights > $(O)/corpus-fuzz_rich/head; awk 'NF == 2 && $$1 ~ /^[0-9]+$$/ { next } /^play / { $$3 = 0 } { print }' players/rich.weights > $(O)/corpus-fuzz_rich/sparse
	@: the hidden layer of players/rich_dk.weights cut to its first unit, so that the seed fits -max_len
	@awk 'NF == 2 && $$1 ~ /^[0-9]+$$/ { next } /^play / { $$3 = 0 } /^hidden / { print "hidden 1", $$3; h = 1; next } \
	  h && /^#/ { next } h && $$1 != "end" { printf "%.2g\n", $$1; next } { print }' players/rich_dk.weights > $(O)/corpus-fuzz_rich/hidden
	@cp players/est.weights $(O)/corpus-fuzz_estmodel/builtin
	@head -c 4000 players/estnet.weights > $(O)/corpus-fuzz_estnet/head
	@head -c 4000 players/estseq.weights > $(O)/corpus-fuzz_estseq/head
	@printf '# two deals\n{ c3 s3 h4 h6 d8 s8 dt cj hq ck } { d3 c7 d7 h7 h8 s9 cq da h2 s2 } { d4 c5 s5 c6 d6 c8 d9 dq ca ha c2 } { h3 s4 h5 s7 ct dj sj sq dk sk d2 } { c4 d5 s6 c9 h9 ht st hj hk sa jo }\r\n{ c3 s3 h4 h6 d8 s8 dt cj hq ck } { d3 c7 d7 h7 h8 s9 cq da h2 s2 } { d4 c5 s5 c6 d6 c8 d9 dq ca ha c2 } { h3 s4 h5 s7 ct dj sj sq dk sk d2 } { c4 d5 s6 c9 h9 ht st hj hk sa jo } # a comment\n' > $(O)/corpus-fuzz_deals/list

lib:
	@$(MAKE) --no-print-directory O=$(O) CC=clang OPT=-O1 CPUFLAGS= EXTRA_CFLAGS="$(FLAGS)" $(O)/libdhm.a

$(O)/seed_pack: fuzz/seed_pack.c lib
	clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -I. -Wall -Wextra -Werror \
	  -fsanitize=address,undefined -o $@ $< $(O)/libdhm.a -lsqlite3 -lpthread -lm

$(O)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_text.h lib
	clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -I. -Wall -Wextra -Werror \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< $(O)/libdhm.a -lsqlite3 -lpthread -lm
