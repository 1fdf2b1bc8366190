/** The gate's clock: the server's, or one a test moves. A leaf that every other engine package may use. */
package dev.abusegate.engine.time;
