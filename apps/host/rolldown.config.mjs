import { libraryConfig } from "../../scripts/build/rolldown-library.mjs";

// `cli` is the `quiver` command (bin/quiver.js imports dist/cli.js); `index` the library export.
export default libraryConfig(import.meta.dirname, ["index", "cli"]);
