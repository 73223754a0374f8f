// The widget's styles live beside the API's code, which scopes them into its fragments.
export { STYLES } from '../../functions/_shared/core/widget/styles.ts';
