/**
 * Where a lot certificate's signed PDF is kept (issue 31 item 5): in the certificate store, for
 * as long as its lot document row, so the public API can hand API clients the document itself
 * (`GET /api/v1/lots/{id}/pdf`). A lot export's own object (`lot-exports/…`) expires with the
 * export; this one does not. Written before the row, so a recorded lot always has its file,
 * except those made before the cloud kept them (the route answers 409 for those).
 */
export const lotDocumentFileKey = (accountPublicId: string, lotDocumentId: string): string => `lot-documents/${accountPublicId}/${lotDocumentId}.pdf`;
