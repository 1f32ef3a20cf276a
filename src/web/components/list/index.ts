/** The list kit: the URL state, pages, states and table every list screen is made of. */
export { BulkApproval, type BulkApprovalProps } from "./bulk-approval";
export { BulkBar, type BulkBarProps } from "./bulk-bar";
export { DataTable, type Column, type DataTableProps } from "./data-table";
export { FilterBar, SearchFilter, SelectFilter } from "./filters";
export { ListState, type ListQuery, type ListStateProps } from "./list-state";
export { ListTable, type ListTableProps } from "./list-table";
export { Pager, type PagerProps } from "./pager";
export { RefreshButton, type RefreshButtonProps } from "./refresh-button";
export { useKeysetPages, useNumberedPages, pageCountOf, type KeysetPages, type NumberedPages, type PagerControls } from "./use-pages";
export { useQueryRowSelection, useRowSelection, type RowSelection } from "./use-row-selection";
export { useSortParam, parseSort, serverSort, type SortState } from "./use-sort";
export { useUrlSearch, type UrlSearch } from "./use-url-search";
export { applyParamChanges, isPageParam, pageParam, useUrlParams, type ParamChanges, type UpdateOptions } from "./url-params";
