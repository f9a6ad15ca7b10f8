# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this file
# Shared by the scripts of tools/abi (sourced, not run).

abi_root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
abi_dir=$abi_root/tools/abi
abi_headers=$abi_root/include/tenferro

# abidw/abidiff settings. Only what the exported functions reach is compared, and nothing that
# depends on where or when the library was built (paths, source locations, DT_NEEDED) enters the
# baseline, so that it can be regenerated on any machine and reviewed as a diff.
abi_read_flags=(--drop-private-types --exported-interfaces-only)
abidw_flags=("${abi_read_flags[@]}" --drop-undefined-syms --no-corpus-path --no-comp-dir-path
  --no-show-locs --no-elf-needed --type-id-style hash)

# The functions the public headers declare (TFE_API), one per line, sorted.
abi_declared_functions() {
  perl -0777 -ne 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s{^[ \t]*#[^\n]*}{}mg;
    while (/\bTFE_API\b[^;(]*?\b(tfe_\w+)\s*\(/g) { print "$1\n" }' "$abi_headers"/*.h | sort -u
}

# "name version" of every function the library exports, sorted.
abi_exported_functions() {
  nm -D --defined-only "$1" | awk '$2 ~ /^[TtWi]$/ { print $3 }' |
    sed -E 's/^([^@]+)@@?(.*)$/\1 \2/' | sort -u
}

# "name node" of every name the version script lists under global:, in file order. Fails on a
# wildcard there: every exported name must be listed on purpose.
abi_map_entries() {
  perl -0777 -ne 's{/\*.*?\*/}{}gs; s{#[^\n]*}{}g;
    while (/([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*([A-Za-z0-9_.]*)\s*;/gs) {
      my ($node, $body) = ($1, $2);
      my ($global) = $body =~ /global:(.*?)(?:local:|$)/s;
      next unless defined $global;
      for my $n (split /;/, $global) { $n =~ s/\s+//g; print "$n $node\n" if length $n }
    }' "$1"
}

# The #define TFE_* constants of the public headers (names only), sorted. TFE_API and
# TFE_NODISCARD are the export macros, whose expansion legitimately differs per platform.
abi_constant_names() {
  grep -hoE '^[[:space:]]*#[[:space:]]*define[[:space:]]+TFE_[A-Z0-9_]+' "$abi_headers"/*.h |
    awk '{ print $NF }' | grep -vxE 'TFE_API|TFE_NODISCARD' | sort -u
}

# "NAME value" for the given names, the values as the C compiler evaluates them (so a respelled
# but equal value, 1 vs (1), is not a change). A name the headers no longer define fails to
# compile and is reported by the caller.
abi_constant_values() { # names...
  local tmp
  tmp=$(mktemp -d)
  {
    echo '#include <stdio.h>'
    echo '#include <tenferro/tenferro.h>'
    echo 'int main(void) {'
    for n in "$@"; do echo "  printf(\"%s %lld\\n\", \"$n\", (long long)($n));"; done
    echo '  return 0;'
    echo '}'
  } > "$tmp/constants.c"
  if ! "${CC:-cc}" -std=c99 -I"$abi_root/include" "$tmp/constants.c" -o "$tmp/constants" \
    2> "$tmp/err"; then
    cat "$tmp/err" >&2
    rm -rf "$tmp"
    return 1
  fi
  "$tmp/constants"
  rm -rf "$tmp"
}
