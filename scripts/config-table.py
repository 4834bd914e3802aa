"""Prints the README's configuration table from `insights-cli serve --help`, so it cannot drift."""
import re
import sys

text = sys.stdin.read()
pattern = re.compile(r"^\s+(?:-\w, )?(--[\w-]+)(?: <[\w_]+>)?\n\s+(.*?)(?=\n\s+-|\Z)", re.S | re.M)
print("| environment variable | flag | what it sets | default |")
print("|---|---|---|---|")
for match in pattern.finditer(text):
    flag, desc = match.group(1), " ".join(match.group(2).split())
    if flag == "--help":
        continue
    env = re.search(r"\[env: (\w+)=", desc)
    default = re.search(r"\[default: (.*?)\]", desc)
    desc = re.sub(r"\s*\[(env|default|possible values):.*?\]", "", desc)
    default_cell = "`" + default.group(1).strip('"') + "`" if default else "unset"
    desc, default_cell = desc.replace("|", "\\|"), default_cell.replace("|", "\\|")
    print(f"| `{env.group(1) if env else ''}` | `{flag}` | {desc} | {default_cell} |")
