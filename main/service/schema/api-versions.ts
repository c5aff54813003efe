/** The spec's mapping of api_version to the schema version of call-manager device models. */
export const DEVICE_SCHEMA_VERSIONS: Readonly<Record<string, string>> = {
  '10.1.2': '10.0',
  '10.6.1': '10.5',
  '10.6.2': '10.5',
  '10.6.3': '10.5',
  '11.5.1': '11.5',
  '11.5.2': '11.5',
  '11.5.3': '11.5',
};

/** Without api_version, device models use the latest mapping entry. */
export const LATEST_DEVICE_SCHEMA_VERSION = '11.5';
