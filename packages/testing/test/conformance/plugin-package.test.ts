// The package-shape check run on a fixture package with the right shape, so the check itself is
// exercised on every CI run (each plugin under packages/plugins runs it on itself too).
import { describePluginPackage } from "../../src/conformance/describe-plugin-package.js";

describePluginPackage(new URL("../fixtures/packages/greeter/", import.meta.url));
