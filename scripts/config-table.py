"""The README's configuration table, from `insights-cli serve --help`, so it cannot drift.

Prints it; with a file argument, replaces the table between the config-table markers in that file.
"""
import re
import sys

text = sys.stdin.read()
lines = []
pattern = re.compile(r"^\s+(?:-\w, )?(--[\w-]+)(?: <[\w_]+>)?\n\s+(.*?)(?=\n\s+-|\Z)", re.S | re.M)
lines.append("| environment variable | flag | what it sets | default |")
lines.append("|---|---|---|---|")
for match in pattern.finditer(text):
    flag, desc = match.group(1), " ".join(match.group(2).split())
    if flag == "--help":
        continue
    env = re.search(r"\[env: (\w+)[=\]]", desc)
    default = re.search(r"\[default: (.*?)\]", desc)
    desc = re.sub(r"\s*\[(env|default|possible values):.*?\]", "", desc)
    default_cell = "`" + default.group(1).strip('"') + "`" if default else "unset"
    desc, default_cell = desc.replace("|", "\\|"), default_cell.replace("|", "\\|")
    lines.append(f"| `{env.group(1) if env else ''}` | `{flag}` | {desc} | {default_cell} |")

table = "\n".join(lines) + "\n"
if len(sys.argv) > 1:
    path = sys.argv[1]
    readme = open(path).read()
    start, end = "<!-- config-table:start -->\n", "<!-- config-table:end -->"
    before, rest = readme.split(start, 1)
    _, after = rest.split(end, 1)
    open(path, "w").write(before + start + table + end + after)
else:
    print(table, end="")
