// What @quiver/plugin-private-repo's examples take as given (see scripts/examples/check-examples.mjs).
/** The folder of the plugin's index (its `indexPath` setting). */
export declare const indexPath: string;
