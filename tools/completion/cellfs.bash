# bash completion for cellfs(1): subcommands, each one's options, mount
# options after -o, and KS.TABLE names read from the mount (or, with
# --offline, nothing: a data directory is not browsable). Installed by
# `cmake --install` as share/bash-completion/completions/cellfs.

_cellfs_options() {  # _cellfs_options SUBCOMMAND: its options
  case $1 in
    mount) echo "-f --foreground -o" ;;
    umount) echo "--force" ;;
    cql) echo "-e --execute -f --file" ;;
    load) echo "--offline --ttl --timestamp --skip-rows --max-errors --errfile" ;;
    dump) echo "--offline --csv -o --output" ;;
    stats) echo "--offline --json --plot" ;;
    status) echo "--json" ;;
    snapshot) echo "--as --all" ;;
  esac
  echo "-h --help -V --version"
}

_cellfs() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local subcommands="mount umount sync errors status verify snapshot cql load dump stats demo help"
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$subcommands -h --help -V --version" -- "$cur")
    return
  fi
  local sub=${COMP_WORDS[1]}
  case $sub:$prev in
    mount:-o)
      compopt -o nospace 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -W "debug ro allow_other entry_timeout= attr_timeout=
        commit=periodic commit=group commit=batch commit_interval_ms=" -- "${cur##*,}")
      if [[ $cur == *,* ]]; then COMPREPLY=("${COMPREPLY[@]/#/${cur%,*},}"); fi
      return ;;
    *:--errfile | *:--plot | *:--output | cql:-f | cql:--file | dump:-o)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
    *:--ttl | *:--timestamp | *:--skip-rows | *:--max-errors | *:-e | *:--execute | snapshot:--as)
      return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_cellfs_options "$sub")" -- "$cur")
    return
  fi
  if [[ $sub == help ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
    return
  fi
  # The positionals so far (options and their values skipped).
  local i word positionals=() offline=0
  for ((i = 2; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    case $word in
      --offline) offline=1 ;;
      -o | -e | -f | --ttl | --timestamp | --skip-rows | --max-errors | --errfile | --plot | \
        --output | --execute | --file | --as) ((i++)) ;;
      -*) ;;
      *) positionals+=("$word") ;;
    esac
  done
  # snapshot ACTION DATADIR NAME...: the names from `cellfs snapshot list`.
  if [[ $sub == snapshot ]]; then
    if ((${#positionals[@]} == 0)); then
      mapfile -t COMPREPLY < <(compgen -W "list restore clear" -- "$cur")
      return
    fi
    if ((${#positionals[@]} >= 2)) && [[ ${positionals[0]} == @(restore|clear) ]]; then
      local names
      names=$(cellfs snapshot list "${positionals[1]}" 2>/dev/null | awk 'NR > 1 { print $1 }')
      mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
      return
    fi
  fi
  # load, dump and stats: MOUNTPOINT KS.TABLE, the tables read from the mount.
  if [[ $sub == @(load|dump|stats) && ${#positionals[@]} -eq 1 && $offline -eq 0 ]]; then
    local mount=${positionals[0]} dir tables=()
    for dir in "$mount"/*/*/; do
      [[ -d $dir ]] || continue
      dir=${dir%/}
      tables+=("$(basename "$(dirname "$dir")").$(basename "$dir")")
    done
    mapfile -t COMPREPLY < <(compgen -W "${tables[*]}" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

complete -o filenames -o bashdefault -F _cellfs cellfs
