import { Button } from "./button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./card";

export interface LoadErrorCardProps {
  /** The screen's own wording, e.g. the product's 'Error Loading Vendors'. */
  title: string;
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}

/** A screen whose data failed to load: what failed, why, and the product's 'Try Again'. */
export function LoadErrorCard({ title, message, onRetry, retrying = false }: LoadErrorCardProps) {
  return (
    <Card role="alert" className="border-red-200">
      <CardHeader>
        <CardTitle className="text-red-700">{title}</CardTitle>
        <CardDescription>{message}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={onRetry} disabled={retrying}>
          Try Again
        </Button>
      </CardContent>
    </Card>
  );
}
