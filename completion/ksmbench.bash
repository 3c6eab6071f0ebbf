# bash completion for ksmbench: subcommands, their options, option values
# and hash names. Everything is asked of the ksmbench being completed
# (--list-commands, COMMAND --help, list --names --available for the hashes
# this CPU can run, --list-input-formats), so a new command, option, hash or
# dump format is completed without changing this file.

_ksmbench_help_values() { # the X|Y|Z after OPTION in the command's help; placeholders (T) are not values, FILE is
	"$1" "$2" --help 2>/dev/null | grep -oE -- "$3 [A-Za-z0-9|-]+\|[A-Za-z0-9|-]+" | head -n 1 |
		cut -d' ' -f2 | tr '|' '\n' | grep -vxE '[A-Z]+' | tr '\n' ' '
	"$1" "$2" --help 2>/dev/null | grep -oE -- "$3 [A-Za-z0-9|-]+\|[A-Za-z0-9|-]+" | head -n 1 | grep -qE '(^| |\|)FILE(\||$)' &&
		printf 'FILE'
}

_ksmbench_options() { # the command's options: its usage lines' [--x] and its option lines, not its prose
	"$1" "$2" --help 2>/dev/null | awk '
		/^$/ { usage = 0 } NR == 1 { usage = 1 }
		usage { while (match($0, /\[--?[A-Za-z][A-Za-z0-9-]*/)) { print substr($0, RSTART + 1, RLENGTH - 1); $0 = substr($0, RSTART + RLENGTH) } }
		/^  -/ { o = substr($0, 3); if (index(o, "  ")) o = substr(o, 1, index(o, "  ") - 1)
			n = split(o, w, /[ ,=]+/); for (i = 1; i <= n; i++) if (w[i] ~ /^-/) print w[i] }' | sort -u
}

_ksmbench() {
	local cur prev bin cmd i values
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	bin=${COMP_WORDS[0]}
	COMPREPLY=()
	# The subcommand: the first word after the program that is not an option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$("$bin" --list-commands 2>/dev/null) --help --version" -- "$cur"))
		return
	fi
	case $prev in
	-H | --hash)
		# A comma-separated list (the help says LIST): complete the name after
		# the last comma; one NAME (sum): no list, no "all".
		if ! "$bin" "$cmd" --help 2>/dev/null | grep -qE -- '--hash LIST'; then
			COMPREPLY=($(compgen -W "$("$bin" list --names --available 2>/dev/null)" -- "$cur"))
			return
		fi
		local head=
		[[ $cur == *,* ]] && head=${cur%,*},
		COMPREPLY=($(compgen -P "$head" -W "all $("$bin" list --names --available 2>/dev/null)" -- "${cur##*,}"))
		[[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace 2>/dev/null
		return
		;;
	--input-format)
		COMPREPLY=($(compgen -W "$("$bin" --list-input-formats 2>/dev/null)" -- "$cur"))
		return
		;;
	-o | --output | --lime-ranges | --export-json | --export-csv | --export-markdown)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-p | --pid)
		COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
		return
		;;
	--*)
		values=$(_ksmbench_help_values "$bin" "$cmd" "$prev")
		if [[ -n $values ]]; then
			# FILE among the values (--data zero|random|FILE): files too.
			if [[ " $values " == *" FILE "* ]]; then
				compopt -o filenames 2>/dev/null
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			COMPREPLY+=($(compgen -W "${values//FILE/}" -- "$cur"))
			return
		fi
		# An option that takes a value the help does not enumerate: on its
		# option line, or in the usage ([--kernel-release R]: list has no
		# option lines).
		if "$bin" "$cmd" --help 2>/dev/null | grep -qE -- "(^ *(-[A-Za-z], )?|\[)$prev [A-Z]"; then
			return
		fi
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ksmbench_options "$bin" "$cmd")" -- "$cur"))
		return
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ksmbench ksmbench
