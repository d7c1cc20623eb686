import { expect, it } from "vitest";
import { slug } from "./index.js";

it("slug lower-cases, drops accents and joins the rest with one _", () => {
  expect(slug("Metaheurísticas")).toBe("metaheuristicas");
  expect(slug("  Redes  Neuronales (II) ")).toBe("redes_neuronales_ii");
  expect(slug("¿Qué?")).toBe("que");
  expect(slug("")).toBe("");
});
