# corpus_files.sh — sourced by the training scripts (tools/train_rich.sh, tools/train_gift.sh):
# the fitting records of a recorded corpus and the teacher corpus's test records, as paths.
#
#   field_kifus WORK NAME...   for each field NAME, one record file WORK/kifu/NAME.kifu made from
#                              its matches WORK/corpus/NAME-*.kifu.xz (one after another, one
#                              header; kept when it exists); prints the paths, one a line
#   teacher_tests WORK         the teacher corpus's field B (${DHM_SHARED:-../shared}/data/
#                              teacher/B-*.kifu.xz, never fitted on) unpacked under WORK/kifu;
#                              prints the paths, nothing when the corpus is absent
field_kifus() {
  fk_work=$1
  shift
  for fk_name in "$@"; do
    fk_k="$fk_work/kifu/$fk_name.kifu"
    if [ ! -s "$fk_k" ]; then
      fk_first=1
      for fk_f in "$fk_work"/corpus/"$fk_name"-*.kifu.xz; do
        if [ $fk_first = 1 ]; then xz -dc "$fk_f"; else xz -dc "$fk_f" | tail -n +2; fi
        fk_first=0
      done >"$fk_k.part" && mv "$fk_k.part" "$fk_k" || return 1
    fi
    echo "$fk_k"
  done
}

teacher_tests() {
  tt_dir=${DHM_SHARED:-../shared}/data/teacher
  [ -d "$tt_dir" ] || return 0
  for tt_f in "$tt_dir"/B-*.kifu.xz; do
    tt_k="$1/kifu/test-$(basename "$tt_f" .xz)"
    [ -s "$tt_k" ] || xz -dc "$tt_f" >"$tt_k" || return 1
    echo "$tt_k"
  done
}
