#!/usr/bin/env node
// The `quiver` command's entry: plain JavaScript that any Node parses, so it can check the Node
// version before anything else is imported (dist/cli.js needs Node >= 22.19 and would fail on an
// older one with an unrelated-looking SyntaxError or ERR_UNKNOWN_BUILTIN_MODULE).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    [
      `quiver needs Node.js 22.19 or newer; this is Node.js ${process.versions.node} (${process.execPath}).`,
      "Do one of:",
      "  - install a current Node.js (https://nodejs.org, or: nvm install 24 && nvm use 24), then run quiver again;",
      "  - run it once with a newer Node from the npm registry, without installing one:",
      "      npx -y -p node@24 -p @quiver/host quiver <command>",
      "",
    ].join("\n"),
  );
  process.exit(1);
}
import("../dist/cli.js");
