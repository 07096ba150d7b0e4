/**
 * k8s.io/apimachinery's version.ParseSemantic, with its error texts, for --version=vX.Y.Z: exactly
 * three numeric components without leading zeros, then an optional `-pre.release` and
 * `+build.metadata`. Unlike Go's, surrounding white space is refused: the value becomes the
 * reported gitVersion verbatim.
 */
export interface SemanticVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly preRelease: string;
  readonly buildMetadata: string;
}

const VERSION = /^v?([0-9]+(?:\.[0-9]+)*)(.*)$/;
const EXTRA = /^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
/** Go's uint on the 64-bit platforms kube is built for. */
const MAX_UINT = (1n << 64n) - 1n;

export function parseSemanticVersion(raw: string): SemanticVersion {
  const parts = VERSION.exec(raw);
  if (!parts) throw new Error(`could not parse ${JSON.stringify(raw)} as version`);
  const numbers = (parts[1] ?? '').split('.');
  const extra = parts[2] ?? '';
  if (numbers.length !== 3) throw new Error(`illegal version string ${JSON.stringify(raw)}`);
  const components = numbers.map((c) => {
    if (c.startsWith('0') && c !== '0') {
      throw new Error(
        `illegal zero-prefixed version component ${JSON.stringify(c)} in ${JSON.stringify(raw)}`,
      );
    }
    if (BigInt(c) > MAX_UINT) {
      throw new Error(
        `illegal non-numeric version component ${JSON.stringify(c)} in ${JSON.stringify(raw)}: ` +
          `strconv.ParseUint: parsing ${JSON.stringify(c)}: value out of range`,
      );
    }
    return Number(c);
  });
  const m = EXTRA.exec(extra);
  if (!m) {
    throw new Error(`could not parse pre-release/metadata (${extra}) in version ${JSON.stringify(raw)}`);
  }
  const preRelease = m[1] ?? '';
  const buildMetadata = m[2] ?? '';
  // Numeric pre-release identifiers may not have leading zeros either; alphanumeric ones may.
  for (const id of preRelease.split('.')) {
    if (/^0[0-9]+$/.test(id) && BigInt(id) <= MAX_UINT) {
      throw new Error(
        `illegal zero-prefixed version component ${JSON.stringify(id)} in ${JSON.stringify(raw)}`,
      );
    }
  }
  const [major = 0, minor = 0, patch = 0] = components;
  return { major, minor, patch, preRelease, buildMetadata };
}
