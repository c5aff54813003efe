import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ServiceEvent, WorkbookEvent } from '../../main/service/contract/service-events';
import { EVENT_CHANNEL, forwardServiceEvents } from '../../main/shell/service-events';

describe("the window's service events", () => {
  it("relays staged workbooks' events as the contract's ServiceEvent, until unsubscribed", () => {
    const events = new EventEmitter();
    const sent: [string, ServiceEvent][] = [];
    const stop = forwardServiceEvents(events, { send: (channel, event) => sent.push([channel, event]), isDestroyed: () => false });
    const changed: WorkbookEvent = { id: 'wb-1', state: 'validated', revision: 3, validated_revision: 3 };
    events.emit('workbook', changed);
    expect(sent).toEqual([[EVENT_CHANNEL, { type: 'workbook', ...changed }]]);
    stop();
    expect(events.listenerCount('workbook')).toBe(0);
  });
});
