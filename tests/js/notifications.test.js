import assert from "node:assert/strict";
import { test } from "node:test";

import { standingAlerts, withItem } from "../../static/js/notifications.js";

const item = (id, extra = {}) => ({ id, kind: "turn", read: false, alert: false, accept_url: null, ...extra });

test("a new item goes first and replaces the one of its id", () => {
  const items = [item(2), item(1)];
  assert.deepEqual(withItem(items, item(3)).map((i) => i.id), [3, 2, 1]);
  assert.deepEqual(withItem(items, item(1, { read: true })).map((i) => [i.id, i.read]), [[1, true], [2, false]]);
});

test("only unread challenges that can still be accepted stand as alerts on connect", () => {
  const items = [
    item(1, { kind: "challenge", alert: true, accept_url: "/challenge/a/accept/" }),
    item(2, { kind: "challenge", alert: true, accept_url: null }),
    item(3, { kind: "challenge", alert: true, accept_url: "/challenge/b/accept/", read: true }),
    item(4, { kind: "rematch", alert: true }),
  ];
  assert.deepEqual(standingAlerts(items).map((i) => i.id), [1]);
});
