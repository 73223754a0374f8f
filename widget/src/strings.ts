// The widget's words live beside the API's code, which draws the same first view as a fragment.
export * from '../../functions/_shared/core/widget/strings.ts';
