import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../main/service/auth/login-throttle';
import { openTestService } from './helpers';

describe('failed logins from one address', () => {
  it('wait longer after each failure, up to a cap, and not at all after a success', async () => {
    const waits: number[] = [];
    const throttle = new LoginThrottle(async (ms) => void waits.push(ms));
    for (let i = 0; i < 8; i += 1) {
      await throttle.wait('10.0.0.9');
      throttle.failed('10.0.0.9');
    }
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
    expect(throttle.delayFor('10.0.0.10')).toBe(0);
    throttle.succeeded('10.0.0.9');
    expect(throttle.delayFor('10.0.0.9')).toBe(0);
  });

  it('are slowed down through the service, per address, while others are not', async () => {
    const t = await openTestService();
    try {
      const wrong = `Basic ${Buffer.from('admin:wrong-password').toString('base64')}`;
      for (let i = 0; i < 3; i += 1) {
        await t.service.handle({ method: 'GET', url: '/api/data/Countries/?hierarchy=sys', headers: { authorization: wrong }, remoteAddress: '10.1.1.1' });
      }
      const started = Date.now();
      const slowed = await t.service.handle({ method: 'GET', url: '/api/data/Countries/?hierarchy=sys', headers: { authorization: wrong }, remoteAddress: '10.1.1.1' });
      expect(slowed.status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const other = await t.get('/api/data/Countries/?hierarchy=sys');
      expect(other.status).toBe(200);
    } finally {
      t.close();
    }
  });
});
