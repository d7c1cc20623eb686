import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Emulator } from "@quiver/testing";

/** A shape fixture in test/fixtures/uniprot (see ../fixtures/SOURCE.md). */
const shape = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/uniprot/${name}`, import.meta.url), "utf8"));

/** A sequence UniParc knows, its UPI and the UniProtKB accession of its active Swiss-Prot entry. */
export interface UniParcRecord {
  readonly sequence: string;
  readonly upi: string;
  readonly accession: string;
}

const md5 = (sequence: string) => createHash("md5").update(sequence).digest("hex").toUpperCase();

/** UniProt's error answer. */
const uniprotError = (status: number, path: string, message: string) => ({
  status,
  json: { url: `https://rest.uniprot.org${path}`, messages: [message] },
});

/**
 * Serves UniParc as UniProt's REST documentation describes it (see ../fixtures/SOURCE.md): entries
 * found by sequence checksum (`GET /uniparc/search?query=checksum:<MD5>`) carry no cross-references;
 * `GET /uniparc/{upi}/databases` lists them, filtered by `dbTypes` and `active`. Each record's
 * cross-references are an inactive TrEMBL one, an EMBL one and its active Swiss-Prot accession.
 * `/uniparc/sequence`, hidden from that documentation, is not served.
 *
 * @example
 * routeUniParc(up, [{ sequence: "MKT…", upi: "UPI00000A0001", accession: "Q7Z6M3" }]);
 */
export const routeUniParc = (up: Emulator, records: ReadonlyArray<UniParcRecord>) => {
  const byMd5 = new Map(records.map((r) => [md5(r.sequence), r]));
  const byUpi = new Map(records.map((r) => [r.upi, r]));
  up.route("GET", "/uniparc/search", (req) => {
    const query = req.query.get("query") ?? "";
    if (query === "") return uniprotError(400, req.path, "'query' is a required parameter");
    const checksum = /^checksum:(.*)$/.exec(query)?.[1];
    if (checksum !== undefined && !/^(?:[0-9A-F]{32}|[0-9A-F]{16})$/.test(checksum))
      return uniprotError(400, req.path, `Invalid checksum value: ${checksum}`);
    const record = checksum === undefined ? undefined : byMd5.get(checksum);
    if (!record) return { json: { results: [] } };
    const entry = shape("uniparc-entry-light.json");
    return {
      json: {
        results: [
          {
            ...entry,
            uniParcId: record.upi,
            uniProtKBAccessions: [record.accession],
            sequence: {
              ...entry.sequence,
              value: record.sequence,
              length: record.sequence.length,
              md5: md5(record.sequence),
            },
          },
        ],
      },
    };
  });
  up.route("GET", /^\/uniparc\/([^/]+)\/databases$/, (req) => {
    const upi = decodeURIComponent(req.match?.[1] ?? "");
    if (!/^UPI[\w]{10}$/i.test(upi))
      return uniprotError(
        400,
        req.path,
        "The 'upi' value has invalid format. It should be a valid UniParc UPI",
      );
    const record = byUpi.get(upi.toUpperCase());
    if (!record) return uniprotError(404, req.path, "Resource not found");
    const types = (req.query.get("dbTypes") ?? "")
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    const active = req.query.get("active");
    const size = Number(req.query.get("size") ?? 25);
    const page = shape("uniparc-databases.json") as { results: Array<Record<string, unknown>> };
    const results = page.results
      .map((x) => (x.database === "UniProtKB/Swiss-Prot" ? { ...x, id: record.accession } : x))
      .filter((x) => types.length === 0 || types.includes(String(x.database).toLowerCase()))
      .filter((x) => active === null || String(x.active) === active)
      .slice(0, size);
    return { json: { results } };
  });
};
