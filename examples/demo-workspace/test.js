// Run with: node test.js
import assert from "node:assert/strict";
import { cartTotal, itemCount } from "./src/cart.js";

const items = [
  { name: "tea", priceCents: 450, quantity: 2 },
  { name: "cake", priceCents: 300, quantity: 1 },
];

assert.equal(itemCount(items), 3);
assert.equal(cartTotal(items), 1200, "two teas and a cake cost 12.00");
assert.equal(cartTotal(items, 10), 1080, "10% off 12.00 is 10.80");
console.log("all cart tests passed");
