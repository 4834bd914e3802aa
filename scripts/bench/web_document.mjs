// Prints the GraphQL document the web app sends for an operation, read from the code generator's
// output (web/src/**/__generated__/*.generated.ts), so that a benchmark measures what the browser asks
// and follows the app when its queries change. Usage: node scripts/bench/web_document.mjs ForYouScreen
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";

const web = new URL("../../web/", import.meta.url);
const require = createRequire(new URL("package.json", web));
let print;
try {
  ({ print } = require("graphql"));
} catch {
  console.error("needs the web app's packages: (cd web && npm ci)");
  process.exit(1);
}
const [operation] = process.argv.slice(2);
const declaration = `export const ${operation}Document = `;

const generated = readdirSync(new URL("src/", web), { recursive: true }).filter(
  (path) => path.endsWith(".generated.ts"),
);
for (const path of generated) {
  for (const line of readFileSync(new URL(`src/${path}`, web), "utf8").split(
    "\n",
  )) {
    if (line.startsWith(declaration)) {
      const json = line.slice(
        declaration.length,
        line.lastIndexOf(" as unknown as "),
      );
      console.log(print(JSON.parse(json)));
      process.exit(0);
    }
  }
}
console.error(
  `no generated document for ${operation} under web/src (run: cd web && npm run codegen)`,
);
process.exit(1);
