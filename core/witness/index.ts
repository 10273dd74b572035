/** Circuit witness builders and the reference semantics of the circuits' public outputs. */
export * from './inputs.ts';
export * from './maptop.ts';
export * from './publics.ts';
export * from './reference.ts';
export {
  visionMeasure,
  visionThreshold,
  visionZonesByTable,
  type ZoneSightTable,
  zoneSightTable,
} from './zones.ts';
