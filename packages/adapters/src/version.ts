/** The version of @quiver/adapters. */
export const VERSION = "0.1.0";
