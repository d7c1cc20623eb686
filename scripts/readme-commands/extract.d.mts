/** One command line of a README block; `skip` is the reason a marker gave for not running it. */
export interface ReadmeCommand {
  line: number;
  text: string;
  skip?: string;
}
/** One fenced bash/sh/shell block; `skip` is the reason a marker gave for not running any of it. */
export interface ReadmeBlock {
  line: number;
  skip?: string;
  commands: ReadmeCommand[];
}
/** How a command line runs: a server waited for on its port, or a command run to its end. */
export type ReadmeStep =
  | { kind: "server"; command: string; port: number }
  | { kind: "command"; command: string; json: boolean; producer?: string };
/** How one command line is run. */
export declare const classify: (line: string) => ReadmeStep;
/** The blocks of a README with their commands and markers; `quiver` is the file's `quiver=` marker. */
export declare const extractBlocks: (text: string) => { quiver?: string; blocks: ReadmeBlock[] };
