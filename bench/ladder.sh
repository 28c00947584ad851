#!/bin/sh
# ladder.sh — the ladder: dhm players against external UECda clients over TCP (docs/ladder.md).
# Each field is one match of five seats on `dhm serve` (or the official server): dhm's player
# as a `dhm connect` process (or, with --local, an in-process seat of the server) and the
# external clients, named by command lines in environment variables, as remote seats. Prints,
# per field, each seat's points per game with its standard error over blocks of games (batch
# means: games inside a match are not independent), its CPU seconds per game (the process's
# own user + system time, read from the rusage of the finished child), the pairwise
# "finished above" rates, the points each seat is ahead of each other game by game (with their
# SE, over blocks as above), and, in the match format, the points by the class each seat
# started the game in. A benchmark, not a test: it needs the external clients, which are
# built outside the repository (docs/ladder.md); without them it says what is missing and
# exits 0.
#
#   bench/ladder.sh [options]              (--help lists them)
#   DHM_LADDER_KLEINBLAUW=/path/to/policy_client DHM_LADDER_DEVKIT=/path/to/client \
#     bench/ladder.sh -p mc -g 200 -f kleinblauw,devkit
#
# Clients: DHM_LADDER_KLEINBLAUW, DHM_LADDER_BLAUWEREGEN, DHM_LADDER_DEVKIT, DHM_LADDER_OTHER
# (label: DHM_LADDER_OTHER_NAME, default "other"). Each is a command line; {host} and {port}
# in it are replaced by the server's address, and when it has neither, "-h HOST -p PORT" (the
# sample client's options) is appended. When its first word is a path (has a /), the client
# runs in that file's directory (clients read their parameter files relative to it); else in
# a scratch directory. $DHM is the dhm binary (build/dhm); $DHM_LADDER_SERVER the official
# server's tndhms binary, for --server official.
#
# Exit status: 0 every field played cleanly (or nothing to run: skipped), 1 a field could not
# be played (a client did not connect, the server failed), 2 bad options, 3 every field played
# but some not cleanly (a process exited non-zero, a client timed out or dropped: named).
set -u
set -f # no file name expansion of field and player names

PLAYER=mc
VERSUS=
INDEPENDENT=0
NOEXCH=0
CLASS0=
SERIAL=0
GAMES=200
MIXED_GAMES=
SEED=1
FIELDS=
BLOCK=10
LOCAL=0
SERVER=dhm
TIMEOUT=60000
KEEP=
FORMAT=table
OUT=
HOST=127.0.0.1
PERIOD=100 # games between class resets in the match format, on both servers
POOL=0
POOLDIRS=
PLAYOPT=
DHM=${DHM:-build/dhm}

usage() {
  cat <<'EOF'
usage: bench/ladder.sh [options]
Plays dhm's player against external UECda clients over TCP, one match per field, and prints
points per game +- SE (over blocks of games), CPU seconds per game of every seat, the
pairwise "finished above" rates, each seat's points ahead of each other seat game by game
(+- SE, over blocks as above) and, in the match format, the points by the class each seat
started the game in.

  -p, --player SPEC     the dhm player in seat 0 (mc); or kleinblauw, blauweregen, devkit,
                        other: that external client instead (to measure it in the fields)
  -q, --versus SPEC     paired comparison: every field is played twice on the same starts
                        (--independent, one seed), with -p and then with this player in seat 0,
                        and the difference of their points is reported with its paired SE
      --independent     independent games (dhm serve --independent): every game draws its own
                        seats and classes, so the SE is over games, and two runs with one seed
                        deal every game alike
      --no-exchange     every game a first game (dhm serve --class-reset 1): no classes and no
                        exchange, the play alone; with --independent or --versus the same
                        seats and hands as with the exchange
      --class0 C        independent games in which seat 0 starts every game in class C
                        (dhm serve --class0: 0-4 or daifugo .. daihinmin; implies
                        --independent): a player, or with --versus a difference, in one class
      --serial          with --versus, play the two runs one after the other (default: both at
                        once, one core each)
  -g, --games N         games per field (200)
      --mixed-games N   games of the mixed field (half of --games: Blauweregen thinks
                        about 1.2 s a game)
  -s, --seed S          seed of dhm serve's deals and seats and of the dhm players (1)
  -f, --fields LIST     comma-separated fields (default: every field whose clients are set):
                          kleinblauw  the player + 4 x KleinBlauw
                          devkit      the player + 4 x devkit
                          mixed       the player, Blauweregen, KleinBlauw, devkit, other
                          A+B+C+D+E   five seats: dhm (the player), kleinblauw, blauweregen,
                                      devkit, other, or any dhm player spec
  -b, --block B         games per block for the standard error (10)
      --local           dhm seats play inside dhm serve (their CPU is then the server's
                        process; mc players report their own)
      --server S        dhm (dhm serve, default) or official (the organisers' tndhms, from
                        $DHM_LADDER_SERVER; seeds itself from the clock, so --seed is ignored)
      --move-timeout MS a client silent this long on its turn passes, and the field is not
                        clean (60000; dhm serve only)
      --keep DIR        keep every log, client output and game record (kifu) under DIR
      --csv, --json     print CSV or JSON on stdout instead of the table
      --out PREFIX      also write PREFIX.csv and PREFIX.json
      --pool DIR...     play nothing: report the runs kept under each DIR (--keep) as one, each
                        field's games together (the same players in every run; match format
                        and independent games apart); with -b, --csv, --json, --out only
  -h, --help            this text

Clients are command lines in DHM_LADDER_KLEINBLAUW, DHM_LADDER_BLAUWEREGEN, DHM_LADDER_DEVKIT
and DHM_LADDER_OTHER (DHM_LADDER_OTHER_NAME labels it); {host} and {port} are replaced, else
"-h HOST -p PORT" is appended. docs/ladder.md says how to build them.
EOF
}

die() { echo "ladder.sh: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value (try --help)"; }
posint() { case $2 in '' | *[!0-9]*) die "$1 must be a positive integer, got '$2'" ;; esac; [ "$2" -gt 0 ] || die "$1 must be a positive integer, got '$2'"; }

while [ $# -gt 0 ]; do
  case $1 in -b | --block | --csv | --json | --out | -h | --help | --pool) ;; -*) PLAYOPT=$1 ;; esac
  case $1 in
  -p | --player) need "$@"; PLAYER=$2; shift ;;
  -q | --versus) need "$@"; VERSUS=$2; INDEPENDENT=1; shift ;;
  --independent) INDEPENDENT=1 ;;
  --no-exchange) NOEXCH=1 ;;
  --class0) need "$@"; case $2 in [0-4] | daifugo | fugo | heimin | hinmin | daihinmin) ;; *) die "--class0 must be 0-4 or daifugo, fugo, heimin, hinmin, daihinmin, got '$2'" ;; esac; CLASS0=$2; INDEPENDENT=1; shift ;;
  --serial) SERIAL=1 ;;
  -g | --games) need "$@"; posint --games "$2"; GAMES=$2; shift ;;
  --mixed-games) need "$@"; posint --mixed-games "$2"; MIXED_GAMES=$2; shift ;;
  -s | --seed) need "$@"; case $2 in '' | *[!0-9]*) die "--seed must be a non-negative integer, got '$2'" ;; esac; SEED=$2; shift ;;
  -f | --fields) need "$@"; FIELDS=$2; shift ;;
  -b | --block) need "$@"; posint --block "$2"; BLOCK=$2; shift ;;
  --local) LOCAL=1 ;;
  --server) need "$@"; SERVER=$2; shift ;;
  --move-timeout) need "$@"; posint --move-timeout "$2"; TIMEOUT=$2; shift ;;
  --keep) need "$@"; KEEP=$2; shift ;;
  --csv) FORMAT=csv ;;
  --json) FORMAT=json ;;
  --out) need "$@"; OUT=$2; shift ;;
  --pool) POOL=1 ;;
  -h | --help) usage; exit 0 ;;
  -*) die "unknown option '$1' (try --help)" ;;
  *)
    [ "$POOL" = 1 ] || die "unexpected argument '$1' (try --help)"
    POOLDIRS="$POOLDIRS
$1" ;;
  esac
  shift
done
if [ "$POOL" = 1 ]; then
  [ -z "$PLAYOPT" ] || die "--pool reports kept runs and plays nothing: $PLAYOPT does not go with it"
  [ -n "$POOLDIRS" ] || die "--pool needs the directories of kept runs (--keep DIR)"
fi
case $SERVER in
dhm) ;;
official)
  [ -n "${DHM_LADDER_SERVER:-}" ] || die "--server official needs DHM_LADDER_SERVER (the path of tndhms)"
  [ -x "$DHM_LADDER_SERVER" ] || die "DHM_LADDER_SERVER: '$DHM_LADDER_SERVER' is not an executable file"
  [ "$LOCAL" = 0 ] || die "--local needs --server dhm (the official server has no built-in players)"
  [ -z "$CLASS0" ] || die "--class0 needs --server dhm"
  [ "$INDEPENDENT" = 0 ] || die "--independent and --versus need --server dhm (the official server plays a match schedule)"
  [ "$NOEXCH" = 0 ] || die "--no-exchange needs --server dhm (the official server resets classes every $PERIOD games)"
  command -v stdbuf >/dev/null 2>&1 || die "--server official needs stdbuf (coreutils)"
  ;;
*) die "--server must be dhm or official, got '$SERVER'" ;;
esac
[ "$POOL" = 1 ] || [ -x "$DHM" ] || { echo "ladder.sh: $DHM not built (make)" >&2; exit 1; }
case $DHM in /*) ;; *) DHM=$(pwd)/$DHM ;; esac

# The external clients: name -> variable and label.
ext_var() {
  case $1 in
  kleinblauw) echo DHM_LADDER_KLEINBLAUW ;;
  blauweregen) echo DHM_LADDER_BLAUWEREGEN ;;
  devkit) echo DHM_LADDER_DEVKIT ;;
  other) echo DHM_LADDER_OTHER ;;
  *) return 1 ;;
  esac
}
ext_label() {
  case $1 in
  kleinblauw) echo KleinBlauw ;;
  blauweregen) echo Blauweregen ;;
  devkit) echo devkit ;;
  other) echo "${DHM_LADDER_OTHER_NAME:-other}" ;;
  esac
}
ext_cmd() { eval "printf '%s' \"\${$(ext_var "$1"):-}\""; }

# field_seats NAME: the five seat tokens of a field, space separated.
field_seats() {
  case $1 in
  kleinblauw) echo "dhm kleinblauw kleinblauw kleinblauw kleinblauw" ;;
  devkit) echo "dhm devkit devkit devkit devkit" ;;
  mixed) echo "dhm blauweregen kleinblauw devkit other" ;;
  *+*+*+*+*)
    s=$(echo "$1" | tr '+' ' ')
    set -- $s
    [ $# = 5 ] || return 1
    echo "$s" ;;
  *) return 1 ;;
  esac
}

# missing SEATS: the variables a field needs that are unset.
missing() {
  m=
  for t in $*; do
    [ "$t" = dhm ] && t="$PLAYER $VERSUS"
    for u in $t; do
      v=$(ext_var "$u") || continue
      [ -n "$(ext_cmd "$u")" ] || case " $m " in *" $v "*) ;; *) m="$m $v" ;; esac
    done
  done
  echo "${m# }"
}

EXPLICIT=1
if [ -z "$FIELDS" ]; then
  FIELDS=kleinblauw,devkit,mixed
  EXPLICIT=0
fi
RUN=
[ "$POOL" = 1 ] && FIELDS=
for f in $(echo "$FIELDS" | tr ',' ' '); do
  seats=$(field_seats "$f") || die "unknown field '$f' (kleinblauw, devkit, mixed, or five seats joined by +)"
  m=$(missing $seats)
  if [ -n "$m" ]; then
    [ "$EXPLICIT" = 1 ] && die "field $f needs $m (docs/ladder.md says how to build the clients)"
    echo "ladder.sh: field $f skipped: set $m (docs/ladder.md)" >&2
    continue
  fi
  [ -z "$KEEP" ] || [ ! -e "$KEEP/$f" ] || die "--keep: '$KEEP/$f' already exists (keep each run in its own directory)"
  [ -z "$VERSUS" ] || case $seats in *dhm*) ;; *) die "--versus: field $f has no dhm seat to compare in" ;; esac
  RUN="$RUN $f"
done
if [ -z "$RUN" ] && [ "$POOL" = 0 ]; then
  echo "ladder.sh: skipped: no external UECda clients given (set DHM_LADDER_KLEINBLAUW, DHM_LADDER_DEVKIT, DHM_LADDER_BLAUWEREGEN, DHM_LADDER_OTHER; docs/ladder.md)" >&2
  exit 0
fi

T=$(mktemp -d /tmp/dhm-ladder-XXXXXX) || exit 1
PIDS=
cleanup() {
  for p in $PIDS; do kill "$p" 2>/dev/null; done
  for p in $PIDS; do wait "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP" || die "--keep: cannot create '$KEEP'"
  KEEP=$(cd "$KEEP" && pwd)
fi

# A seat's process: runs a command line in a directory, then writes the CPU time of what it
# ran (the rusage of its waited-for children: the `times` builtin) and its exit status. A
# TERM or INT is passed on to the command.
WRAP='d=$1 cpu=$2 cmd=$3
cd "$d" || exit 126
eval "exec $cmd" &
k=$!
trap "kill \$k 2>/dev/null" TERM INT
wait $k; rc=$?
while kill -0 $k 2>/dev/null; do wait $k; rc=$?; done
times >"$cpu"
exit $rc'

# seat_command TOKEN: the command line of an external seat, with host and port filled in,
# and the directory it runs in (printed as two lines: dir, command).
seat_command() {
  c=$(ext_cmd "$1")
  case $c in
  *'{port}'* | *'{host}'*) c=$(printf '%s' "$c" | sed "s/{port}/$PORT/g; s/{host}/$HOST/g") ;;
  *) c="$c -h $HOST -p $PORT" ;;
  esac
  exe=${c%% *}
  case $exe in
  */*)
    [ -f "$exe" ] && [ -x "$exe" ] || { echo "ladder.sh: $(ext_var "$1"): '$exe' is not an executable file" >&2; return 1; }
    dir=$(cd "$(dirname "$exe")" && pwd)
    c="$dir/$(basename "$exe")${c#"$exe"}"
    ;;
  *)
    command -v "$exe" >/dev/null 2>&1 || { echo "ladder.sh: $(ext_var "$1"): '$exe' not found" >&2; return 1; }
    dir=$2
    ;;
  esac
  printf '%s\n%s\n' "$dir" "$c"
}

# start NAME DIR CMD: starts a seat's process in the background (logs under $W).
start() {
  if [ -n "$KEEP" ]; then _o="$W/$1.out"; else _o=/dev/null; fi
  sh -c "$WRAP" ladder-seat "$2" "$W/$1.cpu" "$3" >"$_o" 2>"$W/$1.err" &
  LAST=$!
  PIDS="$PIDS $LAST"
}

# wait_for FILE PATTERN COUNT SECONDS PID...: until FILE has COUNT lines matching PATTERN
# (then 0), or one of the PIDs has ended, or the time is up (then 1).
wait_for() {
  _w=0
  while _c=$(grep -c -e "$2" "$1" 2>/dev/null); [ "${_c:-0}" -lt "$3" ]; do
    for _p in $5 ${6:-}; do kill -0 "$_p" 2>/dev/null || return 1; done
    _w=$((_w + 1))
    [ $_w -le $(($4 * 20)) ] || return 1
    sleep 0.05
  done
}

# cpu_of FILE: user + system seconds of the children from a `times` output (second line).
cpu_of() {
  [ -s "$1" ] || { echo nan; return; }
  sed -n 2p "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.3f", t }'
}

now() { date +%s; }
loadavg() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo nan; }

# progress FIELD N PID: a line on stderr every 10 s until PID ends (games_so_far counts).
# (Helpers' own variables start with _: sh has no local variables.)
progress() {
  _t0=$(now)
  _last=$_t0
  while kill -0 "$3" 2>/dev/null; do
    sleep 0.5
    _t=$(now)
    if [ $((_t - _last)) -ge 10 ]; then
      _last=$_t
      awk -v f="$1" -v k="$(games_so_far)" -v n="$2" -v e=$((_t - _t0)) 'BEGIN {
        eta = k > 0 ? sprintf("%.0f s", e * (n - k) / k) : "-";
        printf "ladder.sh: %s: game %d/%d, %d s, ETA %s\n", f, k, n, e, eta }' >&2
    fi
  done
}

# Results of all fields: $RES.seats, one tab-separated row per seat and one for the server
# (written by run_field); $RES.games, each game's classes by player number. Each run writes its
# own $RES.*.NAME files (runs may play at once) and its exit status to $RES.status.NAME; they are
# gathered in order once the runs are over.
RES=$T/results
STATUS=0

# run_field FIELD NAME: plays one field (NAME: the run's name, FIELD or FIELD:A / FIELD:B) and
# writes its rows to $RES.*.NAME.
run_field() {
  F=$1
  NAME=$2
  W=${KEEP:-$T}/$NAME
  mkdir -p "$W" "$W/scratch"
  set -- $(field_seats "$F")
  n=$GAMES
  [ "$F" = mixed ] && n=${MIXED_GAMES:-$(((GAMES + 1) / 2))}
  SEATS="$*"
  # labels, commands, local or remote
  i=0
  SERVE_SEATS=
  for t in $SEATS; do
    if [ "$t" = dhm ]; then t=$PLAYER; fi
    if ext_var "$t" >/dev/null; then
      eval "KIND$i=ext TOK$i=\$t LABEL$i=\$(ext_label \$t)"
    else
      eval "KIND$i=dhm TOK$i=\$t LABEL$i=\"dhm \$t\""
    fi
    eval "k=\$KIND$i"
    if [ "$k" = dhm ] && [ "$LOCAL" = 1 ]; then
      SERVE_SEATS="$SERVE_SEATS,$t"
    else
      SERVE_SEATS="$SERVE_SEATS,remote"
    fi
    i=$((i + 1))
  done
  SERVE_SEATS=${SERVE_SEATS#,}

  t0=$(now)
  load0=$(loadavg)
  if [ "$SERVER" = dhm ]; then
    start server "$W/scratch" "\"$DHM\" serve --port 0 --bind $HOST --seats '$SERVE_SEATS' --games $n --seed $SEED $INDEP_OPT --move-timeout $TIMEOUT --wait 120000 --json --record \"$W/games.kifu\" >\"$W/server.json\""
    SPID=$LAST
    wait_for "$W/server.err" 'listening on' 1 30 "$SPID" || {
      field_fail "dhm serve did not start: $(tail -n 1 "$W/server.err" 2>/dev/null) (it runs in $W/scratch: name files in specs by absolute paths)"
      return
    }
    PORT=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$W/server.err" | head -n 1)
    games_so_far() { grep -c '^game ' "$W/server.err"; }
  else
    PORT=$(awk -v p=$$ 'BEGIN { srand(); printf "%d", 20000 + (p * 7919 + int(rand() * 20000)) % 30000 }')
    cat >"$W/scratch/tndhms.cfg" <<EOF
WINDOW_TYPE	console
CONSOLE_TYPE	console
GRAPH_WINDOW	none
RULE_KAKUMEI	yes
RULE_SHIBARI	yes
RULE_KINSOKU	no
RULE_KAIDAN	yes
RULE_5TOBI	no
RULE_6REVERS	no
RULE_8GIRI	yes
RULE_11BACK	no
RULE_CHANGE	yes
RULE_SEKIGAE	yes
RULE_SEKIGAE_NUM	3
FLAG_STATISTICS	no
FLAG_HIDDEN_NAME	no
FLAG_LOGGER	no
GAME_NUMBER	$n
FLASH_MIBUN_NUMBER	$PERIOD
PORT_NUMBER	$PORT
RAND_TYPE	MT
EOF
    start server "$W/scratch" "stdbuf -oL \"$DHM_LADDER_SERVER\" -c tndhms.cfg -p $PORT >\"$W/official.out\""
    SPID=$LAST
    wait_for "$W/official.out" 'now waiting 0' 1 30 "$SPID" || { field_fail "the official server did not start (port $PORT in use?)"; return; }
    games_so_far() { grep -c '^================ game' "$W/official.out"; }
  fi

  # the remote seats, one at a time, in seat order (the server numbers them as they connect)
  i=0
  r=0
  for t in $SEATS; do
    eval "k=\$KIND$i tok=\$TOK$i"
    if [ "$k" = dhm ] && [ "$LOCAL" = 1 ]; then i=$((i + 1)); continue; fi
    if [ "$k" = dhm ]; then
      dir=$W/scratch
      cmd="\"$DHM\" connect --host $HOST --port $PORT --player '$tok' --seed $SEED --quiet"
    else
      sc=$(seat_command "$tok" "$W/scratch") || { field_fail "seat $i: no client"; return; }
      dir=$(printf '%s\n' "$sc" | sed -n 1p)
      cmd=$(printf '%s\n' "$sc" | sed -n 2p)
    fi
    eval "CMD$i=\$cmd"
    start "seat$i" "$dir" "$cmd"
    eval "PID$i=\$LAST"
    r=$((r + 1))
    if [ "$SERVER" = dhm ]; then
      wait_for "$W/server.err" "^dhm serve: player $i: " 1 60 "$SPID" "$LAST"
    else
      wait_for "$W/official.out" '^accepted from' $r 60 "$SPID" "$LAST"
    fi || {
      _e=$(tail -n 3 "$W/seat$i.err" 2>/dev/null | tr '\n' ' ')
      eval "field_fail \"seat $i (\$LABEL$i) did not connect\${_e:+; its last words: \$_e}\""
      return
    }
    i=$((i + 1))
  done

  progress "$F" "$n" "$SPID"
  wait "$SPID"
  SRC=$?
  secs=$(($(now) - t0))
  load1=$(loadavg)
  i=0
  problems=
  [ "$SRC" = 0 ] || problems="$problems; server exited $SRC"
  while [ $i -lt 5 ]; do
    eval "k=\$KIND$i"
    if [ "$k" = dhm ] && [ "$LOCAL" = 1 ]; then
      eval "RC$i=-"
    else
      eval "wait \$PID$i"
      rc=$?
      eval "RC$i=$rc"
      eval "[ $rc = 0 ] || problems=\"\$problems; seat $i (\$LABEL$i) exited $rc\""
    fi
    i=$((i + 1))
  done

  # per-game classes by player number, from the server's own lines
  if [ "$SERVER" = dhm ]; then
    sed -n 's/^game [0-9]*: classes \([0-4]\) \([0-4]\) \([0-4]\) \([0-4]\) \([0-4]\) totals.*/\1 \2 \3 \4 \5/p' "$W/server.err" >"$W/classes.txt"
    # turns lost and dropped clients, from the server's log lines
    i=0
    while [ $i -lt 5 ]; do
      to=$(grep -c "^dhm serve: player $i (.*) sent no .* within" "$W/server.err")
      dr=$(grep -c "^dhm serve: player $i (.*) .*: it passes for the rest of the match" "$W/server.err")
      eval "TO$i=$to DR$i=$dr"
      [ "$to" = 0 ] || eval "problems=\"\$problems; seat $i (\$LABEL$i) timed out $to times\""
      [ "$dr" = 0 ] || eval "problems=\"\$problems; seat $i (\$LABEL$i) dropped\""
      i=$((i + 1))
    done
    # refused submissions (counted as passes), and the in-process CPU of local mc seats
    awk '/"player": [0-9]/ {
      p = $0; sub(/.*"player": /, "", p); sub(/,.*/, "", p);
      ill = $0; sub(/.*"illegal": /, "", ill); sub(/,.*/, "", ill);
      cpu = "nan"; if ($0 ~ /"cpu_seconds": /) { cpu = $0; sub(/.*"cpu_seconds": /, "", cpu); sub(/,.*/, "", cpu) }
      print p, ill, cpu }' "$W/server.json" 2>/dev/null >"$W/refused.txt"
    SERVER_LABEL="dhm serve"
    [ "$LOCAL" = 1 ] && SERVER_LABEL="dhm serve (with its in-process seats)"
  else
    awk '/^================ game/ { g = 1; next }
      g && /^(daihugou|hugou|heimin|himmin|daihinnmin) / { c[$2] = k++; if (k == 5) { print c[0], c[1], c[2], c[3], c[4]; g = 0; k = 0 } }' \
      "$W/official.out" >"$W/classes.txt"
    : >"$W/refused.txt"
    i=0
    while [ $i -lt 5 ]; do eval "TO$i=- DR$i=-"; i=$((i + 1)); done
    SERVER_LABEL="official server (tndhms)"
  fi
  played=$(wc -l <"$W/classes.txt")
  [ "$played" = "$n" ] || problems="$problems; $played of $n games played"

  # seat rows: field server seed games seconds seat label cpu refused timeouts dropped exit clean
  # problems command load_start load_end, and the format (FORMAT_COLS: independent no-exchange
  # class0 class-reset), which --pool reads back from a kept run's seats.tsv
  clean=yes
  [ -z "$problems" ] || { clean=no; [ "$STATUS" = 1 ] || STATUS=3; echo "$STATUS" >"$RES.status.$NAME"; }
  seed=$SEED
  [ "$SERVER" = official ] && seed=-
  i=0
  while [ $i -lt 5 ]; do
    eval "k=\$KIND$i lab=\$LABEL$i rc=\$RC$i to=\$TO$i dr=\$DR$i cmd=\${CMD$i:-}"
    cpu=$(cpu_of "$W/seat$i.cpu")
    ref=$(awk -v p=$i '$1 == p { print $2 }' "$W/refused.txt")
    if [ "$k" = dhm ] && [ "$LOCAL" = 1 ]; then
      cpu=$(awk -v p=$i '$1 == p { print $3 }' "$W/refused.txt")
      cmd="(in dhm serve) $(eval "echo \$TOK$i")"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$NAME" "$SERVER" "$seed" "$played" "$secs" \
      "$i" "$lab" "$cpu" "${ref:--}" "$to" "$dr" "$rc" "$clean" "${problems#; }" "$cmd" "$load0" "$load1" "$FORMAT_COLS" >>"$RES.seats.$NAME"
    i=$((i + 1))
  done
  printf '%s\t%s\t%s\t%s\t%s\tserver\t%s\t%s\t-\t-\t-\t%s\t%s\t%s\t-\t%s\t%s\t%s\n' "$NAME" "$SERVER" "$seed" "$played" "$secs" \
    "$SERVER_LABEL" "$(cpu_of "$W/server.cpu")" "$SRC" "$clean" "${problems#; }" "$load0" "$load1" "$FORMAT_COLS" >>"$RES.seats.$NAME"
  # the rows, kept for --pool
  [ -z "$KEEP" ] || cp "$RES.seats.$NAME" "$W/seats.tsv"
  # classes of this field, tagged: field, game, the five classes, run (0: --pool numbers them)
  awk -v f="$NAME" '{ print f, NR - 1, $0, 0 }' "$W/classes.txt" >>"$RES.games.$NAME"
  PIDS=
}

# field_fail MESSAGE: a field that could not be played; its processes are stopped.
field_fail() {
  echo "ladder.sh: field $NAME: $1" >&2
  for p in $PIDS; do kill "$p" 2>/dev/null; done
  for p in $PIDS; do wait "$p" 2>/dev/null; done
  PIDS=
  STATUS=1
  echo 1 >"$RES.status.$NAME"
}

# gather NAME: appends a finished run's rows to $RES and takes its status.
gather() {
  cat "$RES.seats.$1" >>"$RES.seats" 2>/dev/null
  cat "$RES.games.$1" >>"$RES.games" 2>/dev/null
  if [ -s "$RES.status.$1" ]; then
    _s=$(cat "$RES.status.$1")
    [ "$_s" = 1 ] && STATUS=1
    [ "$_s" = 3 ] && [ "$STATUS" = 0 ] && STATUS=3
  fi
  [ "$FORMAT" = table ] && [ -s "$RES.seats.$1" ] && report table "$1"
}

# report FORMAT [FIELD]: the statistics, computed once from the per-game classes and the seat
# rows, printed as a table, CSV or JSON.
report() {
  awk -F '\t' -v fmt="$1" -v only="${2:-}" -v B="$BLOCK" -v ind="$INDEPENDENT" -v nx="$NOEXCH" -v c0="$CLASS0" \
    -v R="$RESET" '
  function num(x) { return (x == "nan" || x == "-" || x == "") ? "null" : x + 0 }
  function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  function cstr(s) { if (s ~ /[",]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" } return s }
  # points by the class a seat started the game in, k = 0..4 (daifugo..daihinmin) or 5 (first:
  # after a class reset, every R games on both servers). Match format only: independent games
  # draw their classes, which the records of finishing classes do not show.
  function byc_head(   h, k) { for (k = 0; k < 6; k++) h = h ",start_" CN[k] "_games,start_" CN[k] "_points"; return h }
  function byc_mean(f, i, k) { return cs[f, i, k] / cn[f, i, k] }
  # the SE of the points seat i is ahead of seat j (mean[i] - mean[j], a game at a time): over
  # games in independent games, else over the blocks (batch means); -1 when it has none
  function ahead_se(f, i, j, g,   md, v, m, bm) {
    if (ind == 1) {
      if (g < 2) return -1;
      md = (s[f, i] - s[f, j]) / g; v = (ds2[f, i, j] - g * md * md) / (g - 1);
      return sqrt((v < 0 ? 0 : v) / g)
    }
    m = nb[f] + 0; if (m < 2) return -1;
    bm = db[f, i, j] / m; v = (db2[f, i, j] - m * bm * bm) / (m - 1);
    return sqrt((v < 0 ? 0 : v) / m)
  }
  BEGIN { split("daifugo fugo heimin hinmin daihinmin first", CN1, " "); for (q = 0; q < 6; q++) CN[q] = CN1[q + 1] }
  FILENAME == ARGV[1] {
    split($0, w, " "); f = w[1];
    if (only != "" && f != only) next;
    n[f]++;
    # a run of its own (--pool numbers them, w[8]) starts a block afresh: no block spans two runs
    if (!(f in rn) || rn[f] != w[8]) {
      rn[f] = w[8]; inb[f] = 0;
      for (i = 0; i < 5; i++) { bs[f, i] = 0; for (j = 0; j < 5; j++) bd[f, i, j] = 0 }
    }
    for (i = 0; i < 5; i++) { c[i] = w[3 + i]; pts = 5 - c[i]; s[f, i] += pts; s2[f, i] += pts * pts; bs[f, i] += pts }
    for (i = 0; i < 5; i++) for (j = 0; j < 5; j++) {
      if (c[i] < c[j]) above[f, i, j]++;
      # points ahead of seat j, game by game (row - column): its SE over games and over blocks
      d = c[j] - c[i]; ds2[f, i, j] += d * d; bd[f, i, j] += d
    }
    # the class each player started this game in: its last finish, or 5 (first) after a reset
    for (i = 0; i < 5; i++) { st = (w[2] % R == 0) ? 5 : last[f, i]; cn[f, i, st]++; cs[f, i, st] += 5 - c[i]; last[f, i] = c[i] }
    if (++inb[f] == B) {
      inb[f] = 0; nb[f]++;
      for (i = 0; i < 5; i++) {
        b[f, i] += bs[f, i] / B; b2[f, i] += (bs[f, i] / B) ^ 2; bs[f, i] = 0;
        for (j = 0; j < 5; j++) { db[f, i, j] += bd[f, i, j] / B; db2[f, i, j] += (bd[f, i, j] / B) ^ 2; bd[f, i, j] = 0 }
      }
    }
    next
  }
  {
    f = $1; if (only != "" && f != only) next;
    if (!(f in seen)) { seen[f] = 1; order[++nf] = f }
    key = f SUBSEP $6; row[key] = $0;
    server[f] = $2; seed[f] = $3; games[f] = $4; secs[f] = $5; clean[f] = $13; problems[f] = $14; l0[f] = $16; l1[f] = $17
  }
  END {
    if (fmt == "csv") print "field,server,seed,games,seconds,load_start,load_end,seat,player,points_per_game,se_blocks,block_games,se_games,cpu_s_per_game,refused,timeouts,dropped,exit_status,clean,above_0,above_1,above_2,above_3,above_4,command" byc_head() ",ahead_0,ahead_1,ahead_2,ahead_3,ahead_4,se_ahead_0,se_ahead_1,se_ahead_2,se_ahead_3,se_ahead_4";
    if (fmt == "json") printf "{\"block_games\": %d, \"se\": \"standard error of the points per game over blocks of %d games (batch means)\", \"se_ahead\": \"%s\", \"exchange\": %s, \"class0\": %s, \"fields\": [", B, B,
      "standard error of the points each seat is ahead of each other seat (row - column, a game at a time) " (ind == 1 ? "over games (independent games)" : "over the same blocks (batch means)"), nx == 1 ? "false" : "true", c0 == "" ? "null" : jstr(c0);
    for (k = 1; k <= nf; k++) {
      f = order[k]; g = n[f] + 0;
      for (i = 0; i < 5; i++) {
        split(row[f SUBSEP i], r, "\t");
        lab[i] = r[7]; cpu[i] = r[8]; ref[i] = r[9]; to[i] = r[10]; dr[i] = r[11]; ex[i] = r[12]; cmd[i] = r[15];
        mean[i] = g ? s[f, i] / g : 0;
        var = g > 1 ? (s2[f, i] - g * mean[i] ^ 2) / (g - 1) : 0; if (var < 0) var = 0;
        seg[i] = g > 1 ? sqrt(var / g) : -1;
        m = nb[f] + 0;
        if (m > 1) { bm = b[f, i] / m; bv = (b2[f, i] - m * bm * bm) / (m - 1); if (bv < 0) bv = 0; seb[i] = sqrt(bv / m) } else seb[i] = -1;
        cpug[i] = (cpu[i] == "nan" || cpu[i] == "-" || g == 0) ? "nan" : cpu[i] / g;
        for (j = 0; j < 5; j++) ab[i, j] = g ? (above[f, i, j] + 0) / g : 0;
      }
      for (i = 0; i < 5; i++) for (j = 0; j < 5; j++) { ah[i, j] = mean[i] - mean[j]; ahse[i, j] = ahead_se(f, i, j, g) }
      split(row[f SUBSEP "server"], r, "\t");
      scpu = (r[8] == "nan" || g == 0) ? "nan" : r[8] / g; slab = r[7]; sex = r[12];
      if (fmt == "table") {
        printf "\nfield %s: %d games on %s (seed %s), %d s wall, load average %s -> %s%s\n", f, g, slab, seed[f], secs[f], l0[f], l1[f],
          clean[f] == "yes" ? "" : "  -- NOT CLEAN: " problems[f];
        if (nx == 1) printf "  no exchange: every game a first game (--class-reset 1)\n";
        if (c0 != "") printf "  seat 0 starts every game in class %s (--class0)\n", c0;
        if (ind == 1) printf "  points per game +- standard error over games (independent games); CPU = user + system seconds of each process\n";
        else printf "  points per game +- standard error over %d blocks of %d games (batch means); CPU = user + system seconds of each process\n", nb[f], B;
        printf "  %-4s %-24s %8s %7s %12s %8s %5s\n", "seat", "player", "points", "+- SE", "CPU s/game", "refused", "exit";
        for (i = 0; i < 5; i++)
          printf "  %-4d %-24s %8.3f %7s %12s %8s %5s\n", i, lab[i], mean[i], (ind == 1 ? seg[i] : seb[i]) < 0 ? "-" : sprintf("%.3f", ind == 1 ? seg[i] : seb[i]),
            cpug[i] == "nan" ? "-" : sprintf("%.4f", cpug[i]), ref[i], ex[i];
        printf "  %-4s %-24s %8s %7s %12s %8s %5s\n", "-", "server", "", "", scpu == "nan" ? "-" : sprintf("%.4f", scpu), "", sex;
        printf "  finished above (row above column, %% of games):\n  %-29s", "";
        for (j = 0; j < 5; j++) printf " %8s", "seat " j;
        printf "\n";
        for (i = 0; i < 5; i++) {
          printf "  %-4d %-24s", i, lab[i];
          for (j = 0; j < 5; j++) printf " %8s", i == j ? "-" : sprintf("%.1f", 100 * ab[i, j]);
          printf "\n";
        }
        if (ind == 1) printf "  points ahead, game by game (row - column +- SE over games):\n  %-29s", "";
        else printf "  points ahead, game by game (row - column +- SE over %d blocks of %d games, batch means):\n  %-29s", nb[f], B, "";
        for (j = 0; j < 5; j++) printf " %15s", "seat " j;
        printf "\n";
        for (i = 0; i < 5; i++) {
          printf "  %-4d %-24s", i, lab[i];
          for (j = 0; j < 5; j++) printf " %15s", i == j ? "-" : sprintf("%+.3f", ah[i, j]) (ahse[i, j] < 0 ? "" : sprintf(" +- %.3f", ahse[i, j]));
          printf "\n";
        }
        if (ind != 1 && nx != 1) {
          printf "  points per game by the class the seat started the game in (games; first: after a class reset):\n  %-29s", "";
          for (q = 0; q < 6; q++) printf " %13s", CN[q];
          printf "\n";
          for (i = 0; i < 5; i++) {
            printf "  %-4d %-24s", i, lab[i];
            for (q = 0; q < 6; q++) printf " %13s", cn[f, i, q] ? sprintf("%.2f (%d)", byc_mean(f, i, q), cn[f, i, q]) : "-";
            printf "\n";
          }
        }
      } else if (fmt == "csv") {
        for (i = 0; i < 5; i++) {
          printf "%s,%s,%s,%d,%s,%s,%s,%d,%s,%.4f,%s,%d,%s,%s,%s,%s,%s,%s,%s", cstr(f), server[f], seed[f], g, secs[f], l0[f], l1[f], i, cstr(lab[i]), mean[i],
            seb[i] < 0 ? "" : sprintf("%.4f", seb[i]), B, seg[i] < 0 ? "" : sprintf("%.4f", seg[i]),
            cpug[i] == "nan" ? "" : sprintf("%.5f", cpug[i]), ref[i] == "-" ? "" : ref[i], to[i] == "-" ? "" : to[i], dr[i] == "-" ? "" : dr[i],
            ex[i] == "-" ? "" : ex[i], clean[f];
          for (j = 0; j < 5; j++) printf ",%s", i == j ? "" : sprintf("%.4f", ab[i, j]);
          printf ",%s", cstr(cmd[i]);
          for (q = 0; q < 6; q++) printf ",%s,%s", ind == 1 ? "" : cn[f, i, q] + 0, ind == 1 || !cn[f, i, q] ? "" : sprintf("%.4f", byc_mean(f, i, q));
          for (j = 0; j < 5; j++) printf ",%s", i == j ? "" : sprintf("%.4f", ah[i, j]);
          for (j = 0; j < 5; j++) printf ",%s", i == j || ahse[i, j] < 0 ? "" : sprintf("%.4f", ahse[i, j]);
          printf "\n";
        }
        printf "%s,%s,%s,%d,%s,%s,%s,server,%s,,,,,%s,,,,%s,%s,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n", cstr(f), server[f], seed[f], g, secs[f], l0[f], l1[f], cstr(slab),
          scpu == "nan" ? "" : sprintf("%.5f", scpu), sex, clean[f];
      } else {
        printf "%s\n  {\"field\": %s, \"server\": %s, \"seed\": %s, \"games\": %d, \"seconds\": %d, \"load_average\": [%s, %s], \"blocks\": %d, \"clean\": %s, \"problems\": %s,\n   \"server_process\": {\"name\": %s, \"cpu_s_per_game\": %s, \"exit_status\": %s},\n   \"seats\": [",
          (k > 1 ? "," : ""), jstr(f), jstr(server[f]), seed[f] == "-" ? "null" : seed[f] ~ /^[0-9]+$/ ? seed[f] : jstr(seed[f]), g, secs[f], l0[f], l1[f], nb[f], clean[f] == "yes" ? "true" : "false",
          jstr(problems[f]), jstr(slab), scpu == "nan" ? "null" : sprintf("%.5f", scpu), num(sex);
        for (i = 0; i < 5; i++) {
          printf "%s\n    {\"seat\": %d, \"player\": %s, \"command\": %s, \"points_per_game\": %.4f, \"se_blocks\": %s, \"se_games\": %s, \"cpu_s_per_game\": %s, \"refused\": %s, \"timeouts\": %s, \"dropped\": %s, \"exit_status\": %s, \"finished_above\": [",
            i ? "," : "", i, jstr(lab[i]), jstr(cmd[i]), mean[i], seb[i] < 0 ? "null" : sprintf("%.4f", seb[i]), seg[i] < 0 ? "null" : sprintf("%.4f", seg[i]),
            cpug[i] == "nan" ? "null" : sprintf("%.5f", cpug[i]), num(ref[i]), num(to[i]), num(dr[i]), num(ex[i]);
          for (j = 0; j < 5; j++) printf "%s%s", j ? ", " : "", i == j ? "null" : sprintf("%.4f", ab[i, j]);
          printf "], \"ahead\": [";
          for (j = 0; j < 5; j++) printf "%s%s", j ? ", " : "", i == j ? "null" : sprintf("%.4f", ah[i, j]);
          printf "], \"se_ahead\": [";
          for (j = 0; j < 5; j++) printf "%s%s", j ? ", " : "", i == j || ahse[i, j] < 0 ? "null" : sprintf("%.4f", ahse[i, j]);
          printf "], \"by_start_class\": ";
          if (ind == 1) printf "null";
          else {
            printf "{\"classes\": [\"daifugo\", \"fugo\", \"heimin\", \"hinmin\", \"daihinmin\", \"first\"], \"games\": [";
            for (q = 0; q < 6; q++) printf "%s%d", q ? ", " : "", cn[f, i, q];
            printf "], \"mean_points\": [";
            for (q = 0; q < 6; q++) printf "%s%s", q ? ", " : "", cn[f, i, q] ? sprintf("%.4f", byc_mean(f, i, q)) : "null";
            printf "]}";
          }
          printf "}";
        }
        printf "]}";
      }
    }
    if (fmt == "json") printf "\n]}\n";
  }' "$RES.games" "$RES.seats"
}

# paired FORMAT [FIELD]: for fields played with --versus, seat 0's points per game with -p (A)
# and with -q (B) on the same starts, game by game: each mean with its SE over games, the mean
# difference A - B with its paired SE (the SD of the per-game differences over the square root
# of the games), the correlation of the pairs, and the unpaired SE the same games would give.
paired() {
  awk -v fmt="$1" -v only="${2:-}" -v A="$PLAYER" -v B="$VERSUS" -v nx="$NOEXCH" -v c0="$CLASS0" '
  function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  function cstr(s) { if (s ~ /[",]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" } return s }
  {
    # FIELD:A or FIELD:B (a field may name player specs with colons of their own)
    if ($1 !~ /:[AB]$/) next;
    f = substr($1, 1, length($1) - 2); r = substr($1, length($1)); if (only != "" && f != only) next;
    if (!(f in seen)) { seen[f] = 1; order[++nf] = f }
    # a game is its run (w[8], numbered by --pool) and its number in the run
    key = $8 SUBSEP $2; pts[f, r, key] = 5 - $3;
    if (r == "A") keys[f, ++nk[f]] = key
  }
  END {
    if (fmt == "csv") print "field,games,player_a,player_b,points_a,se_a,points_b,se_b,difference,se_difference,correlation,se_unpaired";
    if (fmt == "json") printf "{\"se\": \"standard error over games (independent games; the difference is paired game by game)\", \"exchange\": %s, \"class0\": %s, \"fields\": [", nx == 1 ? "false" : "true", c0 == "" ? "null" : jstr(c0);
    for (k = 1; k <= nf; k++) {
      f = order[k]; g = 0; sa = sb = saa = sbb = sab = 0;
      for (q = 1; q <= nk[f]; q++) {
        key = keys[f, q]; if (!((f, "B", key) in pts)) continue;
        a = pts[f, "A", key]; b = pts[f, "B", key]; g++;
        sa += a; sb += b; saa += a * a; sbb += b * b; sab += a * b
      }
      if (g < 2) { printf "ladder.sh: field %s: fewer than two games played by both\n", f > "/dev/stderr"; continue }
      ma = sa / g; mb = sb / g;
      va = (saa - g * ma * ma) / (g - 1); vb = (sbb - g * mb * mb) / (g - 1); cab = (sab - g * ma * mb) / (g - 1);
      if (va < 0) va = 0; if (vb < 0) vb = 0;
      vd = va + vb - 2 * cab; if (vd < 0) vd = 0;
      sed = sqrt(vd / g); seu = sqrt((va + vb) / g);
      r = (va > 0 && vb > 0) ? cab / sqrt(va * vb) : 0;
      if (fmt == "table") {
        printf "\npaired, field %s: %d games, every game started alike for both (independent games%s%s, seed as above)\n", f, g, nx == 1 ? ", no exchange" : "", c0 != "" ? ", seat 0 in class " c0 : "";
        printf "  seat 0 points per game +- SE over games:\n";
        printf "    A %-28s %8.3f +- %.3f\n", A, ma, sqrt(va / g);
        printf "    B %-28s %8.3f +- %.3f\n", B, mb, sqrt(vb / g);
        printf "  A - B = %+.3f +- %.3f (paired SE; 95%% interval %+.3f to %+.3f); correlation of the pairs %.2f;\n", ma - mb, sed, ma - mb - 1.96 * sed, ma - mb + 1.96 * sed, r;
        printf "  the same games unpaired would give +- %.3f\n", seu
      } else if (fmt == "csv") {
        printf "%s,%d,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", cstr(f), g, cstr(A), cstr(B), ma, sqrt(va / g), mb, sqrt(vb / g), ma - mb, sed, r, seu
      } else {
        printf "%s\n  {\"field\": %s, \"games\": %d, \"player_a\": %s, \"player_b\": %s, \"points_a\": %.4f, \"se_a\": %.4f, \"points_b\": %.4f, \"se_b\": %.4f, \"difference\": %.4f, \"se_difference\": %.4f, \"correlation\": %.4f, \"se_unpaired\": %.4f}",
          (k > 1 ? "," : ""), jstr(f), g, jstr(A), jstr(B), ma, sqrt(va / g), mb, sqrt(vb / g), ma - mb, sed, r, seu
      }
    }
    if (fmt == "json") printf "\n]}\n";
  }' "$RES.games"
}

# pool_runs: --pool. Every run kept under the directories of $POOLDIRS (a field's directory
# with its seats.tsv and classes.txt) goes into $RES.games as a run of its own, and the runs of
# each field into one row a seat in $RES.seats: games, seconds and CPU added up, seeds joined by
# +, clean only if every run was. Runs of different players in a seat, or of different formats,
# are an error.
# pool_dir DIR RUN: the runs kept under DIR, one a field, into $T/pool.seats and $RES.games
# (as run RUN: a paired run's A and B share it, so they pair up game by game).
pool_dir() {
  find "$1" -mindepth 1 -maxdepth 1 -type d | sort >"$T/pool.list"
  while IFS= read -r _w; do
    if [ ! -s "$_w/classes.txt" ]; then
      if [ -e "$_w/server.err" ] || [ -e "$_w/official.out" ]; then
        echo "ladder.sh: --pool: $_w has no games (the run did not finish): left out" >&2
      else
        echo "ladder.sh: --pool: $_w is not a field of a kept run: left out" >&2
      fi
      continue
    fi
    [ -s "$_w/seats.tsv" ] || die "--pool: $_w has no seats.tsv (kept by a ladder.sh before --pool)"
    _f=$(awk -F '\t' 'NR == 1 { print $18 " " $19 " " $20 " " $21 }' "$_w/seats.tsv")
    [ -n "${_f% * * *}" ] || die "--pool: $_w/seats.tsv has no format columns (kept by a ladder.sh before --pool)"
    [ -z "$_fmt" ] || [ "$_fmt" = "$_f" ] || die "--pool: $_w was played in another format (independent, no-exchange, class0, class-reset: $_f against $_fmt)"
    _fmt=$_f
    _n=${_w%/}
    _n=${_n##*/}
    cat "$_w/seats.tsv" >>"$T/pool.seats"
    awk -v f="$_n" -v r="$2" '{ print f, NR - 1, $0, r }' "$_w/classes.txt" >>"$RES.games"
    _runs=$((_runs + 1))
  done <"$T/pool.list"
}

pool_runs() {
  _runs=0
  _fmt=
  _ifs=$IFS
  IFS='
'
  for _d in $POOLDIRS; do
    [ -d "$_d" ] || die "--pool: '$_d' is not a directory"
    _a=$(cd "$_d" && pwd -P) || die "--pool: cannot enter '$_d'"
    grep -qxF "$_a" "$T/pool.dirs" 2>/dev/null && die "--pool: '$_d' is given twice"
    printf '%s\n' "$_a" >>"$T/pool.dirs"
  done
  IFS=$_ifs
  _r=0
  while IFS= read -r _d; do
    pool_dir "$_d" $_r
    _r=$((_r + 1))
  done <"$T/pool.dirs"
  [ "$_runs" -gt 0 ] || die "--pool: no kept runs under $(echo $POOLDIRS)"
  set -- $_fmt
  INDEPENDENT=$1 NOEXCH=$2 CLASS0=$3 RESET=$4
  [ "$CLASS0" != - ] || CLASS0=
  awk -F '\t' -v OFS='\t' -v CONVFMT='%.6f' '
  function add(x, y) { return (x == "-" || y == "-") ? "-" : (x == "nan" || y == "nan") ? "nan" : x + y }
  {
    k = $1 SUBSEP $6;
    # the problems of each run, tagged with its seed once there is more than one run
    runs[k]++; if ($14 != "") tagged[k] = (tagged[k] == "" ? "" : tagged[k] "; ") "seed " $3 ": " $14;
    if (runs[k] == 1) { order[++n] = k; split($0, a, "\t"); for (i = 1; i <= 21; i++) v[k, i] = a[i]; next }
    if ($7 != v[k, 7] && $6 != "server") {
      printf "ladder.sh: --pool: field %s, seat %s: %s in one run and %s in another (pool runs of the same players)\n", $1, $6, v[k, 7], $7 >"/dev/stderr";
      bad = 1; exit 2
    }
    if (index("+" v[k, 2] "+", "+" $2 "+") == 0) v[k, 2] = v[k, 2] "+" $2;
    if (index(" / " v[k, 7] " / ", " / " $7 " / ") == 0) v[k, 7] = v[k, 7] " / " $7;
    v[k, 3] = (v[k, 3] == "-" && $3 == "-") ? "-" : v[k, 3] "+" $3; v[k, 4] += $4; v[k, 5] += $5;
    for (i = 8; i <= 11; i++) v[k, i] = add(v[k, i], $i);
    if ((v[k, 12] == "0" || v[k, 12] == "-") && $12 != "0" && $12 != "-") v[k, 12] = $12;
    if ($13 != "yes") v[k, 13] = "no";
    v[k, 17] = $17
  }
  END {
    if (bad) exit 2;
    for (q = 1; q <= n; q++) {
      k = order[q]; if (runs[k] > 1) v[k, 14] = tagged[k];
      line = v[k, 1];
      for (i = 2; i <= 21; i++) line = line OFS v[k, i];
      print line
    }
  }' "$T/pool.seats" >"$RES.seats" || exit 2
  awk -F '\t' '$13 == "no" { f = 1 } END { exit !f }' "$RES.seats" && STATUS=3
  # paired runs (FIELD:A, FIELD:B): their players, from seat 0
  PLAYER=$(awk -F '\t' '$1 ~ /:A$/ && $6 == 0 { sub(/^dhm /, "", $7); print $7; exit }' "$RES.seats")
  VERSUS=$(awk -F '\t' '$1 ~ /:B$/ && $6 == 0 { sub(/^dhm /, "", $7); print $7; exit }' "$RES.seats")
  [ "$FORMAT" != table ] || echo "pooled: $_runs kept runs under $(echo $POOLDIRS)"
}

: >"$RES.games"
: >"$RES.seats"
RESET=$PERIOD
[ "$NOEXCH" = 1 ] && RESET=1
FORMAT_COLS=$(printf '%s\t%s\t%s\t%s' "$INDEPENDENT" "$NOEXCH" "${CLASS0:--}" "$RESET")
INDEP_OPT="--class-reset $RESET"
[ "$INDEPENDENT" = 1 ] && INDEP_OPT="--independent $INDEP_OPT"
if [ -n "$CLASS0" ]; then
  [ "$NOEXCH" = 0 ] || die "--class0 needs the exchange (not --no-exchange): without it there are no classes"
  INDEP_OPT="$INDEP_OPT --class0 $CLASS0"
fi
for f in $RUN; do
  if [ -z "$VERSUS" ]; then
    run_field "$f" "$f"
    gather "$f"
    continue
  fi
  A=$PLAYER
  if [ "$SERIAL" = 1 ]; then
    run_field "$f" "$f:A"
    PLAYER=$VERSUS
    run_field "$f" "$f:B"
  else
    (run_field "$f" "$f:A") &
    RA=$!
    PLAYER=$VERSUS
    (run_field "$f" "$f:B") &
    RB=$!
    PIDS="$RA $RB"
    wait "$RA"
    wait "$RB"
    PIDS=
  fi
  PLAYER=$A
  gather "$f:A"
  gather "$f:B"
  [ "$FORMAT" = table ] && [ -s "$RES.games.$f:A" ] && [ -s "$RES.games.$f:B" ] && paired table "$f"
done
if [ "$POOL" = 1 ]; then
  pool_runs
  if [ "$FORMAT" = table ]; then
    report table
    [ -z "$VERSUS" ] || paired table
  fi
fi
if [ -s "$RES.seats" ]; then
  if [ "$FORMAT" != table ]; then
    if [ -n "$VERSUS" ]; then paired "$FORMAT"; else report "$FORMAT"; fi
  fi
  if [ -n "$OUT" ]; then
    if [ -n "$VERSUS" ]; then
      { paired csv >"$OUT.csv" && paired json >"$OUT.json" && report csv >"$OUT.fields.csv"; } || { echo "ladder.sh: cannot write $OUT.csv / $OUT.json" >&2; exit 1; }
    else
      { report csv >"$OUT.csv" && report json >"$OUT.json"; } || { echo "ladder.sh: cannot write $OUT.csv / $OUT.json" >&2; exit 1; }
    fi
  fi
fi
exit $STATUS
