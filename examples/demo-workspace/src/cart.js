// Shopping cart totals for the demo shop.

/** The total price of the items, in cents, after a percentage discount. */
export function cartTotal(items, discountPercent = 0) {
  let total = 0;
  for (const item of items) {
    total += item.priceCents;
  }
  const discount = Math.round((total * discountPercent) / 100);
  return total - discount;
}

/** How many items are in the cart, counting quantities. */
export function itemCount(items) {
  return items.reduce((count, item) => count + item.quantity, 0);
}
