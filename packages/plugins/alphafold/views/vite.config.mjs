import { viteSingleFile } from "vite-plugin-singlefile";
import { viewConfig } from "../../../../scripts/build/vite-view.mjs";

export default viewConfig(`${import.meta.dirname}/..`, "structure", viteSingleFile);
