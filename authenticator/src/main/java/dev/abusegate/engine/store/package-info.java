/**
 * The port the gate keeps its counters behind ({@link dev.abusegate.engine.store.CounterStore}), the changes a store
 * applies atomically per key, and the bounded slot tables every store keeps its entries in.
 */
package dev.abusegate.engine.store;
