import { libraryConfig } from "../../scripts/build/rolldown-library.mjs";

export default libraryConfig(import.meta.dirname, ["index", "server", "stdout"]);
