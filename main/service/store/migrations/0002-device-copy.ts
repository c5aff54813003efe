/**
 * Device models keep two copies: `data` is the cache every read serves, `device_data` is what
 * the call manager holds. A `cached=false` read takes the device copy and refreshes the cache.
 */
export const sql = `
ALTER TABLE instances ADD COLUMN device_data TEXT;
UPDATE instances SET device_data = data WHERE model_type LIKE 'device/%';
`;
