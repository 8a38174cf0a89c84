/**
 * The live-state API (DESIGN "Live state", like YTsaurus Orchid): the streams app's stores served
 * read-only as JSON on its ops HTTP port by interactive queries. Any instance answers: it finds the
 * owner of a key's partition and forwards the request there. Thin over the stores
 * ({@link io.quotaflow.streams.topology.LiveStores}); decides nothing.
 */
package io.quotaflow.streams.api;
