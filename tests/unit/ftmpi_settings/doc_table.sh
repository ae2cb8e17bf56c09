#!/bin/bash
# docs/ftmpi.md lists libftmpi's settings as `ftmpi_info --markdown` prints
# them: every line of that table must be in the document, so a setting added
# to the table (or changed) is documented too.
# usage: doc_table.sh <ftmpi_info> <docs/ftmpi.md>
set -u
info=$1 doc=$2
table=$("$info" --markdown) || { echo "ftmpi_info --markdown failed"; exit 1; }
missing=0
while IFS= read -r line; do
    if ! grep -qxF -- "$line" "$doc"; then
        echo "not in $doc: $line"
        missing=1
    fi
done <<<"$table"
[ "$missing" = 0 ] && echo "docs table matches ($(wc -l <<<"$table") lines)"
exit "$missing"
